import type { ExperimentMetric } from "../../config/variant-definition.ts";
import { contactsPerVariant, newcombe, round4 } from "./experiment-stats.ts";
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

/** `v` against `other` on the metric: the difference, its 95% interval, and what it says. */
export function compareVariants(
  v: ReportVariant,
  other: ReportVariant,
  metric: ExperimentMetric,
): VariantComparison {
  const a = metricOf(v, metric);
  const b = metricOf(other, metric);
  const d = newcombe(a.count, v.contactsCalled, b.count, other.contactsCalled);
  const difference = { value: round4(d.value), low: round4(d.low), high: round4(d.high) };
  const verdict = d.low > 0 ? "better" : d.high < 0 ? "worse" : "undecided";
  const figures = `${pct(a.rate.rate)} of ${num(v.contactsCalled)} vs ${pct(b.rate.rate)} of ${num(other.contactsCalled)} (difference ${points(d.value)}, 95% interval ${points(d.low)} to ${points(d.high)})`;
  if (verdict !== "undecided")
    return {
      against: other.name,
      metric,
      difference,
      verdict,
      words: `${v.name} is ${verdict} than ${other.name} on ${METRIC_WORDS[metric]}: ${figures}; the data tells them apart.`,
    };
  const needed =
    v.contactsCalled > 0 && other.contactsCalled > 0
      ? contactsPerVariant(a.rate.rate, b.rate.rate)
      : undefined;
  const more =
    needed === undefined ? undefined : Math.max(0, needed - Math.min(v.contactsCalled, other.contactsCalled));
  return {
    against: other.name,
    metric,
    difference,
    verdict,
    ...(more !== undefined ? { moreContactsPerVariant: more } : {}),
    words: `${v.name} vs ${other.name} on ${METRIC_WORDS[metric]}: ${figures}; the data cannot tell them apart yet${
      more === undefined
        ? " (no difference seen so far)"
        : `: about ${num(more)} more contacts per variant would, if the difference holds`
    }.`,
  };
}

/** The experiment in a sentence or two: each comparison's words, or why there is none yet. */
export function experimentSummary(variants: readonly ReportVariant[], metric: ExperimentMetric): string {
  const called = variants.filter((v) => v.contactsCalled > 0);
  if (called.length < 2)
    return `No comparison yet: ${called.length === 0 ? "no variant has" : `only ${called[0]!.name} has`} calls in this period (compared on ${METRIC_WORDS[metric]}).`;
  return variants
    .map((v) => v.versus?.words)
    .filter((w): w is string => w !== undefined)
    .join(" ");
}
