import { maskPhonesIn } from "../lib/mask-phone.ts";
import { counted } from "../lib/plural.ts";
import { visible } from "../lib/visible-text.ts";
import { zonedTime } from "../lib/zoned-time.ts";
import type { CampaignSummary } from "../pipeline/model/results.ts";
import type { Payload } from "../pipeline/reports/model.ts";
import { campaignReach } from "../pipeline/reports/reach.ts";
import { reportText } from "../pipeline/reports/report-text.ts";
import { num, pct } from "../pipeline/reports/words.ts";

/** A name or message from outside, as a person reads it: phones masked, controls visible. */
const shown = (text: string) => visible(maskPhonesIn(text));

const counts = (m: Record<string, number>) =>
  Object.entries(m)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([k, v]) => `${k} ${v}`)
    .join(", ") || "none";

/** Its reach, where the job's reached statuses are known: "Reached 2 of 6 contacts (33.3%)". */
const reachLine = (s: CampaignSummary, reached: readonly string[] | undefined) =>
  reached ? [`Reached ${campaignReach(s.callsByStatus, s.contacts, reached).reach}`] : [];

/**
 * A campaign summary as a few readable lines (Slack, the report command), times in the campaign's
 * zone (UTC without one); with the job's reached statuses, its reach as every report defines it. Pure.
 */
/** "9 calls, 9 audit records": one record per call the service reported, or what is missing. */
export function auditLine(a: { calls: number; records: number }): string {
  const base = `Audit: ${counted(a.calls, "call")}, ${counted(a.records, "audit record")}`;
  if (a.records === a.calls) return base;
  return a.records < a.calls
    ? `${base}: ${counted(a.calls - a.records, "call")} without a record`
    : `${base}: ${counted(a.records - a.calls, "record")} without a call`;
}

export function summaryLines(s: CampaignSummary, reached?: readonly string[]): string[] {
  const title = { progress: "in progress", final: "finished", stuck: "stuck" }[s.kind];
  const zone = s.campaign.zone ?? "UTC";
  const lines = [
    `Campaign ${shown(s.campaign.name)} (${visible(s.campaign.id)}): ${title}, ${pct(s.completion)} complete`,
    `Contacts ${num(s.contacts)}; calls by status: ${counts(s.callsByStatus)}`,
    ...reachLine(s, reached),
    `Sentiment: ${counts(s.sentiment)}`,
    `Talk time ${s.duration.totalSec} s in all, ${s.duration.averageSec} s on average`,
    `Meetings ${num(s.meetingsScheduled)}, transfers ${num(s.transfers)}, messages ${num(s.messagesSent)}`,
    `Start ${zonedTime(s.campaign.scheduledAt, zone)}`,
  ];
  if (s.errors.length > 0)
    lines.push(`Errors: ${s.errors.map((e) => `${shown(e.message)} (${e.count})`).join("; ")}`);
  if (s.campaign.followUps.length > 0)
    lines.push(`Follow-ups: ${s.campaign.followUps.map(shown).join(", ")}`);
  if (s.jobPaused) lines.push("Job paused: no contact is sent and no campaign created until vcw resume");
  if (s.unknownStatuses)
    lines.push(
      `Statuses in no list of jobs/service.yaml: ${counts(s.unknownStatuses)} (counted as its statuses.unknownIs says)`,
    );
  if (s.campaign.zone) lines.push(`Callee zone ${s.campaign.zone}`);
  if (s.audit) lines.push(auditLine(s.audit));
  if (s.unreadable) {
    const u = s.unreadable;
    const parts = [
      ...Object.entries(u.fields).map(([field, n]) => `${field} in ${counted(n, "entry")}`),
      ...(u.entriesLeftOut ? [`${counted(u.entriesLeftOut, "entry")} left out`] : []),
      ...(u.duplicatePhones ? [`${counted(u.duplicatePhones, "phone")} listed twice`] : []),
      ...(u.phonesNotNormalized
        ? [`${counted(u.phonesNotNormalized, "phone")} not E.164, kept as written`]
        : []),
    ];
    lines.push(`Unreadable in the service's answer: ${parts.join("; ")}`);
  }
  return lines;
}

export function payloadText(p: Payload): string {
  if (p.kind === "report") return reportText(p);
  return summaryLines(p).join("\n");
}
