import { reasonWords } from "../../ingest/reason-words.ts";
import { counted } from "../../lib/plural.ts";
import { visible } from "../../lib/visible-text.ts";
import { experimentLines } from "./experiment-text.ts";
import { counts, duration, headlines, num, periodText, reportTitle } from "./format.ts";
import type { ReportCampaign, ReportModel } from "./model.ts";
import {
  campaignReachedClause,
  campaignStateText,
  campaignsCountText,
  filesText,
  followUpsText,
  footnotes,
  nextText,
  notCalledText,
  repairsText,
  rowsText,
} from "./phrases.ts";
import { numberLines } from "./report-numbers.ts";

/** Campaigns listed by name in text and pages; the rest are counted. */
export const CAMPAIGNS_LISTED = 50;

/** The report as plain text: the e-mail's text part, and what `vcw report` prints. Pure. */
export function reportText(r: ReportModel): string {
  const t = r.totals;
  const f = r.files;
  const lines = [
    reportTitle(r),
    periodText(r.period),
    ...(nextText(r) ? [nextText(r)!] : []),
    "",
    ...headlines(r).map((h) => `${h.label}: ${h.value} (${h.change})`),
    `Transfers ${num(t.transfers)}, messages ${num(t.messages)}`,
    `Talk time ${duration(t.talkTime.totalSec)} in all, median call ${duration(t.talkTime.medianSec)}`,
    `Calls by outcome: ${counts(t.byStatus)}`,
    `Sentiment: ${counts(t.sentiment)}`,
    `Follow-ups: ${followUpsText(r)}`,
    "",
    `Files: ${filesText(f)}; ${rowsText(f)}`,
    `Rejected rows by reason: ${f.rejectedByReason.map((x) => `${reasonWords(x.reason)} ${num(x.rows)}`).join(", ") || "none"}`,
    `Contacts created ${num(f.contactsCreated)}; not called: ${notCalledText(f)}`,
    ...(f.repairs ? [`Repaired before calling: ${repairsText(f.repairs)}`] : []),
    "",
    `Campaigns (${campaignsCountText(r)}):`,
    ...r.campaigns.slice(0, CAMPAIGNS_LISTED).map((c) => campaignLine(c, r)),
    ...(r.campaigns.length > CAMPAIGNS_LISTED
      ? [`... and ${num(r.campaigns.length - CAMPAIGNS_LISTED)} more`]
      : []),
    ...notMadeLines(r),
    ...numberLines(r.numbers),
    ...experimentLines(r),
  ];
  if (r.problems.length > 0) lines.push("", "Problems:", ...r.problems.map((p) => `- ${visible(p.message)}`));
  lines.push("", ...footnotes(r));
  return `${lines.join("\n")}\n`;
}

/** Campaigns asked for and never made, each with why. */
function notMadeLines(r: ReportModel): string[] {
  const rows = r.campaignsNotMade ?? [];
  if (rows.length === 0) return [];
  return [
    "",
    `Campaigns not made (${num(rows.length)}):`,
    ...rows
      .slice(0, CAMPAIGNS_LISTED)
      .map(
        (c) =>
          `- ${visible(c.name)} [${c.outcome}]: ${c.contacts === null ? "its contacts" : counted(c.contacts, "contact")} not called; ${visible(c.reason)}`,
      ),
  ];
}

/**
 * A campaign as a line: its reach, meetings, and where its results are (page and CSV, else the
 * command); one waiting for its start: when it starts, and its contacts.
 */
const campaignLine = (c: ReportCampaign, r: ReportModel) =>
  `- ${visible(c.name)} [${campaignStateText(c, r)}]${c.zone ? ` ${c.zone}` : ""}: ${
    c.state === "waiting"
      ? counted(c.contacts, "contact")
      : `${campaignReachedClause(c)}, ${counted(c.meetings, "meeting")}`
  }; ${c.links ? `${c.links.page} (CSV ${c.links.csv})` : c.results}`;
