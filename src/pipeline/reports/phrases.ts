import { reasonWords } from "../../ingest/reason-words.ts";
import { counted } from "../../lib/plural.ts";
import { zonedTime } from "../../lib/zoned-time.ts";
import type { FileRepairs, ReportCampaign, ReportFiles, ReportModel } from "./model.ts";
import { reachDefinition, reachedClause, reachOf, reachText } from "./reach.ts";
import { num, periodText } from "./words.ts";

/** The sentences the text and the page of a report share, counted nouns through `plural.ts`. Pure. */

/** What follow-ups called in the period, and those made that wait to start (they called nobody yet: not "0 campaigns" alone). */
export const followUpsText = (r: Pick<ReportModel, "totals" | "campaigns">) => {
  const t = r.totals;
  const waiting = r.campaigns.filter((c) => c.attempt > 0 && c.state === "waiting").length;
  return `${counted(t.followUps.calls, "call")} in ${counted(t.followUps.campaigns, "campaign")}: ${num(t.followUps.reached)} reached, ${counted(t.followUps.meetings, "meeting")}${waiting > 0 ? `; ${counted(waiting, "follow-up")} waiting to start` : ""}`;
};

export const filesText = (f: ReportFiles) =>
  `${counted(f.imported, "file")} imported, ${num(f.rejected)} rejected`;

export const rowsText = (f: ReportFiles) =>
  `${counted(f.rowsRead, "row")} read, ${num(f.valid)} valid, ${num(f.rowsRejected)} rejected, ${counted(f.duplicates, "duplicate")}`;

/** Calling rules' other reasons a contact was not called: ", over a frequency cap 3, no calling hours left 1". */
export const otherReasons = (byReason: Record<string, number> | undefined) =>
  Object.entries(byReason ?? {})
    .map(([reason, n]) => `, ${reasonWords(reason)} ${num(n)}`)
    .join("");

export const notCalledText = (f: ReportFiles) =>
  `${num(f.notCalled.optedOut)} opted out, ${num(f.notCalled.recentlyCalled)} called recently${otherReasons(f.notCalled.byReason)}`;

/** What was repaired before anyone was called (issue 28), in one line; late copies taken on and calls made twice when there were. */
export const repairsText = (r: FileRepairs) =>
  `${counted(r.duplicatesRemoved, "duplicate contact")} removed, ${counted(r.campaignsRepaired, "campaign")} made again, ${counted(r.withdrawn, "contact")} withdrawn` +
  (r.copiesAdopted ? `, ${counted(r.copiesAdopted, "late copy")} of a campaign taken on` : "") +
  (r.calledTwice ? `, ${counted(r.calledTwice, "call")} made twice` : "");

/** The campaigns a report lists that wait for their start: "2 waiting to start"; "" when none. */
export const waitingText = (r: Pick<ReportModel, "campaigns">) => {
  const waiting = r.campaigns.filter((c) => c.state === "waiting").length;
  return waiting ? `${num(waiting)} waiting to start` : "";
};

/** How many campaigns a report lists, and how many of them wait for their start: "3, 2 waiting to start". */
export const campaignsCountText = (r: Pick<ReportModel, "campaigns">) =>
  `${num(r.campaigns.length)}${waitingText(r) ? `, ${waitingText(r)}` : ""}`;

/** A campaign's state as a person reads it: "waiting until 2026-11-24 08:00 PST" (its planned start), else the state. */
export const campaignStateText = (c: ReportCampaign, r: Pick<ReportModel, "period">) =>
  c.state === "waiting" ? `waiting until ${zonedTime(c.scheduledAt, c.zone ?? r.period.timezone)}` : c.state;

/** A campaign's reach over its life: "2 of 6 contacts (33.3%)". */
export const campaignReachText = (c: ReportCampaign) => reachText(reachOf(c.reached, c.contacts, "contact"));

/** The same as a clause of a line: "reached 2 of 6 contacts (33.3%)", or "no contacts called". */
export const campaignReachedClause = (c: ReportCampaign) =>
  reachedClause(reachOf(c.reached, c.contacts, "contact"));

/** What comes next, in the report's zone: "Next: X starts 2026-11-21 08:00 PST; the next report 2026-11-22 08:00 PST." */
export const nextText = (r: ReportModel): string | undefined => {
  const n = r.next;
  if (!n) return undefined;
  const zone = r.period.timezone;
  const parts = [
    ...(n.start ? [`${n.start.name} starts ${zonedTime(n.start.at, zone)}`] : []),
    ...(n.report ? [`the next report ${zonedTime(n.report, zone)}`] : []),
  ];
  return `Next: ${parts.join("; ")}.`;
};

/** What the figures mean, when they were seen, and when the report was made, in the report's zone. */
export const footnotes = (r: ReportModel) => [
  reachDefinition(r.reachedStatuses),
  r.timesNote,
  `The previous period is ${periodText(r.previous.period)}. Made ${zonedTime(r.generatedAt, r.period.timezone)}.`,
];
