import { visible } from "../../lib/visible-text.ts";
import { experimentLines } from "./experiment-text.ts";
import { counts, duration, headlines, num, pct, periodText, reportTitle } from "./format.ts";
import type { ReportModel } from "./model.ts";

/** Campaigns listed by name in text and pages; the rest are counted. */
export const CAMPAIGNS_LISTED = 50;

/** The report as plain text: the e-mail's text part, and what `vcw report` prints. Pure. */
export function reportText(r: ReportModel): string {
  const t = r.totals;
  const f = r.files;
  const lines = [
    reportTitle(r),
    periodText(r.period),
    "",
    ...headlines(r).map((h) => `${h.label}: ${h.value} (${h.change})`),
    `Transfers ${num(t.transfers)}, messages ${num(t.messages)}`,
    `Talk time ${duration(t.talkTime.totalSec)} in all, median call ${duration(t.talkTime.medianSec)}`,
    `Calls by outcome: ${counts(t.byStatus)}`,
    `Sentiment: ${counts(t.sentiment)}`,
    `Follow-ups: ${num(t.followUps.calls)} calls in ${num(t.followUps.campaigns)} campaign(s) reached ${num(t.followUps.reached)} more, ${num(t.followUps.meetings)} meeting(s)`,
    "",
    `Files: ${num(f.imported)} imported, ${num(f.rejected)} rejected; ${num(f.rowsRead)} rows read, ${num(f.valid)} valid, ${num(f.rowsRejected)} rejected, ${num(f.duplicates)} duplicates`,
    `Rejected rows by reason: ${f.rejectedByReason.map((x) => `${x.reason} ${num(x.rows)}`).join(", ") || "none"}`,
    `Contacts created ${num(f.contactsCreated)}; not called: ${num(f.notCalled.optedOut)} opted out, ${num(f.notCalled.recentlyCalled)} called recently${otherReasons(f.notCalled.byReason)}`,
    "",
    `Campaigns (${r.campaigns.length}):`,
    ...r.campaigns
      .slice(0, CAMPAIGNS_LISTED)
      .map(
        (c) =>
          `- ${visible(c.name)} [${c.state}]${c.zone ? ` ${c.zone}` : ""}: ${num(c.contacts)} contacts, reached ${pct(c.reachRate)}, ${num(c.meetings)} meeting(s); ${c.results}`,
      ),
    ...(r.campaigns.length > CAMPAIGNS_LISTED
      ? [`... and ${r.campaigns.length - CAMPAIGNS_LISTED} more`]
      : []),
    ...experimentLines(r),
  ];
  if (r.problems.length > 0) lines.push("", "Problems:", ...r.problems.map((p) => `- ${visible(p.message)}`));
  lines.push("", `Reached means a call ended in: ${r.reachedStatuses.join(", ")}.`, r.timesNote);
  return `${lines.join("\n")}\n`;
}

/** Calling rules' other reasons a contact was not called: ", frequency_cap 3, outside_hours 1". */
export const otherReasons = (byReason: Record<string, number> | undefined) =>
  Object.entries(byReason ?? {})
    .map(([reason, n]) => `, ${reason} ${num(n)}`)
    .join("");
