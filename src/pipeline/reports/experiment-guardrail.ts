import type { ExperimentMetric, ExperimentSettings } from "../../config/variant-definition.ts";
import {
  ALPHA,
  type Difference,
  guardrailMetricsOf,
  rateDifference,
  testDifferences,
  testLimit,
} from "./experiment-tests.ts";
import { levelWords, METRIC_WORDS, points } from "./experiment-verdict.ts";
import { num, pct } from "./format.ts";

type Guardrail = NonNullable<ExperimentSettings["guardrail"]>;

/** What the guardrail reads of one variant: its share and counts of contacts over the time it was open. */
export interface GuardrailArm {
  name: string;
  share: number;
  contacts: number;
  /** Contacts counted on the primary metric; contacts who opted out. */
  metric: number;
  optedOut: number;
}

export interface GuardrailInput {
  /** Every variant of the job, in the job's order. */
  arms: readonly GuardrailArm[];
  stopped: ReadonlySet<string>;
  /** Contacts the experiment is planned for (`plannedContacts`): the intervals are narrowest there. */
  plannedContacts: number;
  /** Two variants' counts over the time both were open (after a stop, up to it); default: their own. */
  concurrent?: ((a: GuardrailArm, b: GuardrailArm) => [GuardrailArm, GuardrailArm]) | undefined;
  /** A sample ratio mismatch, in words: comparisons between variants are held while it stands. */
  mismatch?: string | undefined;
}

/** A variant the guardrail takes out of assignment, why, and the figures it judged on. */
export interface GuardrailStop {
  variant: string;
  reason: string;
  figures: Record<string, number | string>;
}

/**
 * Which open variants stop getting new contacts (pure), with always-valid tests, so the answer
 * is as sound after the 400th look as after the first (docs/experiments.md):
 * - the opt-out limit first (it protects people, and reads one variant's own contacts, so a
 *   mismatched split does not hold it): a variant whose opt-out rate is surely above it, Holm
 *   across the variants, at the guardrail metrics' share of 5%;
 * - then (stopWorse, no sample ratio mismatch) a variant surely worse than another on the primary
 *   metric: every pair tested, Holm across the pairs at 5%.
 * Only variants with `minContacts` called are judged, and one open variant always remains.
 */
export function guardrailStops(
  input: GuardrailInput,
  rule: Guardrail,
  metric: ExperimentMetric,
): GuardrailStop[] {
  const { arms, stopped } = input;
  const open = arms.filter((a) => !stopped.has(a.name));
  const judged = (a: GuardrailArm) => a.contacts >= rule.minContacts;
  const stops: GuardrailStop[] = [];
  const room = () => stops.length < open.length - 1;
  const total = arms.reduce((s, a) => s + a.share, 0);
  const planned = (...of: GuardrailArm[]) =>
    Math.max(1, (input.plannedContacts * of.reduce((s, a) => s + a.share, 0)) / total);

  if (rule.maxOptOutRate !== undefined) {
    const limit = rule.maxOptOutRate;
    const alpha = ALPHA / guardrailMetricsOf(metric).length;
    const tested = testLimit(
      open.map((a) => ({
        name: a.name,
        contacts: judged(a) ? a.contacts : 0,
        count: a.optedOut,
        plannedContacts: planned(a),
      })),
      limit,
      alpha,
    );
    for (const t of tested) {
      const a = open.find((x) => x.name === t.name)!;
      if (t.rejected && room())
        stops.push({
          variant: a.name,
          reason: `opt-out rate ${pct(t.rate)} of ${num(a.contacts)} contacts (always-valid interval ${pct(t.low)}–${pct(t.high)}) is above the limit ${pct(limit)}`,
          figures: {
            contacts: a.contacts,
            optedOut: a.optedOut,
            optOutLow: t.low,
            limit,
            level: t.level,
            p: t.p,
          },
        });
    }
  }
  if (!rule.stopWorse || input.mismatch) return stops;

  const pairs: Difference[] = [];
  const counts: [GuardrailArm, GuardrailArm][] = [];
  arms.forEach((x, i) => {
    for (const y of arms.slice(i + 1)) {
      const [a, b] = input.concurrent?.(x, y) ?? [x, y];
      const ready = judged(a) && judged(b);
      const d = rateDifference(a.metric, a.contacts, b.metric, b.contacts);
      counts.push([a, b]);
      pairs.push({
        a: a.name,
        b: b.name,
        difference: d.difference,
        se: ready ? d.se : Number.NaN,
        contacts: a.contacts + b.contacts,
        plannedContacts: planned(x, y),
      });
    }
  });
  // The clearest comparison first: a variant's stop names the one that tells it apart best.
  const tested = testDifferences(pairs, ALPHA).map((t, i) => ({ t, i }));
  tested.sort((x, y) => x.t.p - y.t.p);
  for (const { t, i } of tested) {
    if (!t.rejected) continue;
    const [a, b] = counts[i]!;
    const [worse, better] = t.difference < 0 ? [b, a] : [a, b];
    if (stopped.has(worse.name) || stops.some((s) => s.variant === worse.name) || !room()) continue;
    const sign = worse === a ? -1 : 1;
    const [diff, low, high] = [t.difference, t.low, t.high].map((x) => sign * x) as [number, number, number];
    const [dLow, dHigh] = sign < 0 ? [high, low] : [low, high];
    stops.push({
      variant: worse.name,
      reason: `${worse.name} is worse than ${better.name} on ${METRIC_WORDS[metric]}: ${pct(worse.metric / worse.contacts)} of ${num(worse.contacts)} vs ${pct(better.metric / better.contacts)} of ${num(better.contacts)} (always-valid interval of the difference ${points(dLow)} to ${points(dHigh)}, ${levelWords(t.level, pairs.length)}); the data tells them apart.`,
      figures: {
        metric,
        against: better.name,
        difference: round4(diff),
        low: round4(dLow),
        high: round4(dHigh),
        level: t.level,
        p: t.p,
        contacts: worse.contacts,
        againstContacts: better.contacts,
      },
    });
  }
  return stops;
}

const round4 = (x: number) => Math.round(x * 10_000) / 10_000;
