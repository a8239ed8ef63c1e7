import type { ExperimentMetric, ExperimentSettings } from "../../config/variant-definition.ts";
import { compareVariants, metricOf } from "./experiment-verdict.ts";
import { num, pct } from "./format.ts";
import type { ReportVariant } from "./model.ts";

type Guardrail = NonNullable<ExperimentSettings["guardrail"]>;

/** A variant the guardrail takes out of assignment, why, and the figures it judged on. */
export interface GuardrailStop {
  variant: string;
  reason: string;
  figures: Record<string, number | string>;
}

/**
 * Which open variants stop getting new contacts (pure): one whose opt-out rate is above the limit
 * with its whole 95% interval (the best on the metric too: the limit protects people), then
 * (stopWorse) one worse than the best of the rest on the metric, the difference's interval clear of
 * zero. Only variants with `minContacts` called are judged, and one open variant always remains.
 */
export function guardrailStops(
  variants: readonly ReportVariant[],
  rule: Guardrail,
  metric: ExperimentMetric,
  stopped: ReadonlySet<string>,
): GuardrailStop[] {
  const open = variants.filter((v) => !stopped.has(v.name));
  const judged = open.filter((v) => v.contactsCalled >= rule.minContacts);
  const stops: GuardrailStop[] = [];
  const room = () => stops.length < open.length - 1;
  for (const v of judged)
    if (room() && overOptOutLimit(v, rule)) stops.push(optOutStop(v, rule.maxOptOutRate!));
  const left = judged.filter((v) => !stops.some((s) => s.variant === v.name));
  if (!rule.stopWorse || left.length < 2) return stops;
  const rate = (v: ReportVariant) => metricOf(v, metric).rate.rate;
  const best = left.reduce((a, b) => (rate(b) > rate(a) ? b : a));
  for (const v of left) {
    if (v === best || !room()) continue;
    const c = compareVariants(v, best, metric);
    if (c.verdict === "worse")
      stops.push({
        variant: v.name,
        reason: c.words,
        figures: {
          metric,
          against: best.name,
          difference: c.difference.value,
          low: c.difference.low,
          high: c.difference.high,
          contacts: v.contactsCalled,
          againstContacts: best.contactsCalled,
        },
      });
  }
  return stops;
}

const overOptOutLimit = (v: ReportVariant, rule: Guardrail) =>
  rule.maxOptOutRate !== undefined && v.optOutRate.low > rule.maxOptOutRate;

function optOutStop(v: ReportVariant, limit: number): GuardrailStop {
  const r = v.optOutRate;
  return {
    variant: v.name,
    reason: `opt-out rate ${pct(r.rate)} of ${num(v.contactsCalled)} contacts (95%: ${pct(r.low)}–${pct(r.high)}) is above the limit ${pct(limit)}`,
    figures: { contacts: v.contactsCalled, optedOut: v.optedOut, optOutLow: r.low, limit },
  };
}
