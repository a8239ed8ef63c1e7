import { maskPhonesIn } from "../lib/mask-phone.ts";
import { visible } from "../lib/visible-text.ts";
import { reportText } from "../pipeline/reports/report-text.ts";
import type { CampaignSummary, Payload } from "../pipeline/results/model.ts";

/** A name or message from outside, as a person reads it: phones masked, controls visible. */
const shown = (text: string) => visible(maskPhonesIn(text));

const pct = (share: number) => `${Math.round(share * 1000) / 10}%`;
const counts = (m: Record<string, number>) =>
  Object.entries(m)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([k, v]) => `${k} ${v}`)
    .join(", ") || "none";

/** A campaign summary as a few readable lines (Slack, the report command). Pure. */
export function summaryLines(s: CampaignSummary): string[] {
  const title = { progress: "in progress", final: "finished", stuck: "stuck" }[s.kind];
  const lines = [
    `Campaign ${shown(s.campaign.name)} (${visible(s.campaign.id)}): ${title}, ${pct(s.completion)} complete`,
    `Contacts ${s.contacts}; calls by status: ${counts(s.callsByStatus)}`,
    `Sentiment: ${counts(s.sentiment)}`,
    `Talk time ${s.duration.totalSec} s in all, ${s.duration.averageSec} s on average`,
    `Meetings ${s.meetingsScheduled}, transfers ${s.transfers}, messages ${s.messagesSent}`,
    `Start ${s.campaign.scheduledAt}`,
  ];
  if (s.errors.length > 0)
    lines.push(`Errors: ${s.errors.map((e) => `${shown(e.message)} (${e.count})`).join("; ")}`);
  if (s.campaign.followUps.length > 0)
    lines.push(`Follow-ups: ${s.campaign.followUps.map(shown).join(", ")}`);
  if (s.jobPaused) lines.push("Job paused: no contact is sent and no campaign created until vcw resume");
  if (s.unknownStatuses)
    lines.push(
      `Statuses in no list of polling.statuses: ${counts(s.unknownStatuses)} (see the job's unknownIs)`,
    );
  if (s.campaign.zone) lines.push(`Callee zone ${s.campaign.zone}`);
  if (s.unreadable) {
    const u = s.unreadable;
    const parts = [
      ...Object.entries(u.fields).map(([field, n]) => `${field} in ${n} entr${n === 1 ? "y" : "ies"}`),
      ...(u.entriesLeftOut ? [`${u.entriesLeftOut} entries left out`] : []),
      ...(u.duplicatePhones ? [`${u.duplicatePhones} phones listed twice`] : []),
      ...(u.phonesNotNormalized ? [`${u.phonesNotNormalized} phones not E.164, kept as written`] : []),
    ];
    lines.push(`Unreadable in the service's answer: ${parts.join("; ")}`);
  }
  return lines;
}

export function payloadText(p: Payload): string {
  if (p.kind === "report") return reportText(p);
  if (p.kind !== "digest") return summaryLines(p).join("\n");
  const head = `Digest of job ${p.job} at ${p.at}: ${p.campaigns.length} campaign(s)`;
  return [head, ...p.campaigns.map((s) => summaryLines(s)[0]!)].join("\n");
}
