import type { ExperimentMetric } from "../../config/variant-definition.ts";
import { newcombe, round4 } from "./experiment-stats.ts";
import type { TestedDifference } from "./experiment-tests.ts";
import { num, pct } from "./format.ts";
import type { ReportVariant, VariantComparison } from "./model.ts";

/** The metric's count and share of a variant. */
export const metricOf = (v: ReportVariant, metric: ExperimentMetric) =>
  metric === "reached"
    ? { count: v.reached, rate: v.reachedRate }
    : metric === "meetings"
      ? { count: v.meetings, rate: v.meetingRate }
      : { count: v.transfers, rate: v.transferRate };

/** How each metric reads in a sentence: "b is better than a on contacts reached". */
export const METRIC_WORDS: Record<ExperimentMetric, string> = {
  reached: "contacts reached",
  meetings: "contacts with a meeting booked",
  transfers: "contacts transferred",
};

export const points = (d: number) =>
  `${d > 0 ? "+" : d < 0 ? "−" : ""}${Math.abs(Math.round(d * 1000) / 10)} pts`;

/** The level a comparison was held to, in words: "at 5%", or "at 1.67%, Holm over 3 comparisons". */
export function levelWords(level: number, comparisons: number): string {
  const at = `${Math.round(level * 10_000) / 100}%`;
  return comparisons > 1 ? `at ${at}, Holm over ${comparisons} comparisons` : `at ${at}`;
}

/** Counts of one side of a comparison: contacts, and those counted on the metric. */
export interface Side {
  name: string;
  contacts: number;
  count: number;
}

/**
 * `v` against `other` on the metric, over the time both were open: the difference, its always-valid
 * interval at Holm's level (what decides: better or worse when it is clear of zero), and the
 * fixed-horizon 95% interval (Newcombe's, right for one look planned in advance), labelled so.
 */
export function compareVariants(
  v: Side,
  other: Side,
  metric: ExperimentMetric,
  tested: TestedDifference,
  comparisons: number,
): VariantComparison {
  // `tested` is other -> v or v -> other: turned to v less other.
  const sign = tested.b === v.name ? 1 : -1;
  const [low, high] = sign > 0 ? [tested.low, tested.high] : [-tested.high, -tested.low];
  const fixed = newcombe(v.count, v.contacts, other.count, other.contacts);
  const difference = { value: round4(fixed.value), low: round4(fixed.low), high: round4(fixed.high) };
  const verdict: VariantComparison["verdict"] = tested.rejected
    ? fixed.value > 0
      ? "better"
      : "worse"
    : "undecided";
  const rate = (s: Side) => pct(s.contacts > 0 ? s.count / s.contacts : 0);
  const figures = `${rate(v)} of ${num(v.contacts)} vs ${rate(other)} of ${num(other.contacts)} (difference ${points(fixed.value)}; always-valid interval ${Number.isFinite(low) ? `${points(low)} to ${points(high)}` : "not yet"}, ${levelWords(tested.level, comparisons)}; fixed-horizon 95% interval ${points(fixed.low)} to ${points(fixed.high)})`;
  const sequential = { low: round4(low), high: round4(high), level: tested.level, p: tested.p };
  const base = {
    against: other.name,
    metric,
    difference,
    verdict,
    ...(Number.isFinite(low) ? { sequential } : {}),
  };
  return {
    ...base,
    words:
      verdict === "undecided"
        ? `${v.name} vs ${other.name} on ${METRIC_WORDS[metric]}: ${figures}; the data cannot tell them apart yet.`
        : `${v.name} is ${verdict} than ${other.name} on ${METRIC_WORDS[metric]}: ${figures}; the data tells them apart.`,
  };
}
