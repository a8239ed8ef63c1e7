import { METRIC_WORDS } from "./experiment-verdict.ts";
import { counts, duration, num, pct } from "./format.ts";
import type { RateInterval, ReportModel, ReportVariant } from "./model.ts";

const withInterval = (r: RateInterval) => `${pct(r.rate)} (95%: ${pct(r.low)}–${pct(r.high)})`;

/** One variant in a line: per contact, each rate with its interval. */
export function variantLine(v: ReportVariant): string {
  return `- ${v.name}: ${num(v.contactsCalled)} contacts, ${num(v.calls)} calls; reached ${num(v.reached)} ${withInterval(v.reachedRate)}, meetings ${num(v.meetings)} ${withInterval(v.meetingRate)}, transfers ${num(v.transfers)} ${withInterval(v.transferRate)}, opted out ${num(v.optedOut)} ${withInterval(v.optOutRate)}; talk time ${duration(v.talkTime.totalSec)} (${duration(v.talkTime.perContactSec)} a contact); sentiment ${counts(v.sentiment)}`;
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
