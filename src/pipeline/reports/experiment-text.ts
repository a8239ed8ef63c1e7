import { counted } from "../../lib/plural.ts";
import { METRIC_WORDS } from "./experiment-verdict.ts";
import { counts, duration, num, pct } from "./format.ts";
import type { RateInterval, ReportModel, ReportVariant } from "./model.ts";

const withInterval = (r: RateInterval) => `${pct(r.rate)} (95%: ${pct(r.low)}–${pct(r.high)})`;

/** A variant's campaigns never made, in words: "; 3 campaigns not made (8 contacts not called): failed: ...". */
const notMadeWords = (v: ReportVariant) =>
  v.notMade
    ? `; ${counted(v.notMade.campaigns, "campaign")} not made (${counted(v.notMade.contacts, "contact")} not called): ${v.notMade.reasons.join("; ")}`
    : "";

/** One variant in a line: per contact, each rate with its interval; one whose campaigns all failed got nobody. */
export function variantLine(v: ReportVariant): string {
  if (v.contactsCalled === 0 && v.notMade) return `- ${v.name}: got nobody${notMadeWords(v)}`;
  return `- ${v.name}: ${num(v.contactsCalled)} contacts, ${num(v.calls)} calls; reached ${num(v.reached)} ${withInterval(v.reachedRate)}, meetings ${num(v.meetings)} ${withInterval(v.meetingRate)}, transfers ${num(v.transfers)} ${withInterval(v.transferRate)}, opted out ${num(v.optedOut)} ${withInterval(v.optOutRate)}; talk time ${duration(v.talkTime.totalSec)} (${duration(v.talkTime.perContactSec)} a contact); sentiment ${counts(v.sentiment)}${notMadeWords(v)}`;
}

/** The report's experiment section as text lines (none without variants). Pure. */
export function experimentLines(r: ReportModel): string[] {
  if (!r.variants || !r.experiment) return [];
  return [
    "",
    `Experiment, compared on ${METRIC_WORDS[r.experiment.metric]}:`,
    ...r.variants.map(variantLine),
    r.experiment.summary,
  ];
}
