import type { ExperimentMetric } from "../../config/variant-definition.ts";
import type { ExperimentFigures, ExperimentSetup } from "./experiment-figures.ts";
import type { GuardrailInput } from "./experiment-guardrail.ts";
import type { AssignmentFacts } from "./experiment-missing.ts";
import { sampleRatioChecks } from "./experiment-sample-ratio.ts";
import {
  ALPHA,
  type Difference,
  guardrailMetricsOf,
  meanDifference,
  rateDifference,
  testDifferences,
  testLimit,
} from "./experiment-tests.ts";
import { compareVariants, METRIC_WORDS } from "./experiment-verdict.ts";
import type { ExperimentSummary, GuardrailReading, ReportVariant } from "./model.ts";

/** What the experiment's section needs besides its figures: its settings, decisions and assignments. */
export interface SectionSetup extends ExperimentSetup {
  name?: string | undefined;
  plannedContacts: number;
  maxOptOutRate?: number | undefined;
  /** Contacts given each variant, planned campaign by planned campaign (absent: not known, before issue 41). */
  assignments?: readonly (AssignmentFacts & { at: number })[] | undefined;
  decisions: readonly { variant: string; at: number; action: string }[];
}

const GUARDRAIL_WORDS = { optOuts: "opt-outs", transfers: "transfers", talkTime: "talk time" } as const;

/** The time before any decision: when the split was the planned one. */
const firstDecisionAt = (s: SectionSetup) =>
  Math.min(Number.POSITIVE_INFINITY, ...s.decisions.map((d) => d.at));

/** Every pair of the job's variants on the primary metric, over the time both were open. */
function primaryPairs(fig: ExperimentFigures, s: SectionSetup) {
  const names = s.variants.map((v) => v.name);
  const pairs: Difference[] = [];
  names.forEach((x, i) => {
    for (const y of names.slice(i + 1)) {
      const [a, b] = fig.concurrent(x, y);
      const d = rateDifference(a.metric, a.contacts, b.metric, b.contacts);
      const planned = s.plannedContacts * (a.share + b.share);
      pairs.push({
        a: x,
        b: y,
        ...d,
        contacts: a.contacts + b.contacts,
        plannedContacts: Math.max(1, planned),
      });
    }
  });
  return testDifferences(pairs, ALPHA);
}

/** The sample ratio checks over the time before any decision. */
function checksOf(fig: ExperimentFigures, s: SectionSetup, variants: readonly ReportVariant[]) {
  const until = firstDecisionAt(s);
  const arms = fig.arms(until);
  const assigned = new Map<string, number>();
  for (const a of s.assignments ?? [])
    if (a.at < until) assigned.set(a.variant, (assigned.get(a.variant) ?? 0) + a.assigned);
  const known = (s.assignments?.length ?? 0) > 0;
  return sampleRatioChecks(
    s.variants.map((v) => ({
      name: v.name,
      share: arms.get(v.name)!.share,
      assigned: known ? (assigned.get(v.name) ?? 0) : undefined,
      called: arms.get(v.name)!.contacts,
      missing: variants.find((x) => x.name === v.name)?.missing,
    })),
  );
}

/** The guardrail's input from the figures: every variant's counts, the concurrent ones, and a mismatch. */
export function guardrailInputOf(
  fig: ExperimentFigures,
  s: SectionSetup,
  stopped: ReadonlySet<string>,
): GuardrailInput {
  const arms = fig.arms();
  const variants = fig.variants(s.assignments);
  const mismatch = checksOf(fig, s, variants).find((c) => c.mismatch)?.words;
  return {
    arms: s.variants.map((v) => arms.get(v.name)!),
    stopped,
    plannedContacts: s.plannedContacts,
    concurrent: (a, b) => fig.concurrent(a.name, b.name),
    mismatch,
  };
}

/** Each variant's guardrail metrics against the limit or the first variant, at their share of 5%. */
function guardrailReadings(
  fig: ExperimentFigures,
  s: SectionSetup,
  metric: ExperimentMetric,
): Map<string, GuardrailReading[]> {
  const family = guardrailMetricsOf(metric);
  const alpha = ALPHA / family.length;
  const names = s.variants.map((v) => v.name);
  const [control, ...rest] = names;
  const out = new Map<string, GuardrailReading[]>(names.map((n) => [n, []]));
  const all = fig.arms();
  for (const m of family) {
    if (m === "optOuts" && s.maxOptOutRate !== undefined) {
      const planned = (name: string) => Math.max(1, s.plannedContacts * all.get(name)!.share);
      const tested = testLimit(
        names.map((n) => ({
          name: n,
          contacts: all.get(n)!.contacts,
          count: all.get(n)!.optedOut,
          plannedContacts: planned(n),
        })),
        s.maxOptOutRate,
        alpha,
      );
      for (const t of tested)
        out.get(t.name)!.push({
          metric: m,
          limit: s.maxOptOutRate,
          value: t.rate,
          low: t.low,
          high: t.high,
          level: t.level,
          flagged: t.rejected,
        });
      continue;
    }
    const diffs: Difference[] = rest.map((name) => {
      const [a, b] = fig.concurrent(control!, name);
      const d =
        m === "talkTime"
          ? meanDifference(a.talk, b.talk)
          : m === "transfers"
            ? rateDifference(a.transfers, a.contacts, b.transfers, b.contacts)
            : rateDifference(a.optedOut, a.contacts, b.optedOut, b.contacts);
      return {
        a: control!,
        b: name,
        ...d,
        contacts: a.contacts + b.contacts,
        plannedContacts: Math.max(1, s.plannedContacts * (a.share + b.share)),
      };
    });
    for (const t of testDifferences(diffs, alpha))
      out.get(t.b)!.push({
        metric: m,
        value: t.difference,
        low: t.low,
        high: t.high,
        level: t.level,
        flagged: t.rejected,
      });
  }
  return out;
}

/**
 * The report's experiment section (pure): each variant's figures over the experiment, the
 * comparisons with the first variant (always-valid, Holm over every pair), the guardrail metrics,
 * the sample ratio checks, the concurrent time after a decision, and the corrections in words.
 */
export function experimentSection(
  fig: ExperimentFigures,
  s: SectionSetup,
): { variants: ReportVariant[]; experiment: ExperimentSummary } {
  const metric = s.metric;
  const variants = fig.variants(s.assignments);
  const tested = primaryPairs(fig, s);
  const [first] = s.variants;
  const readings = guardrailReadings(fig, s, metric);
  for (const v of variants) {
    const g = readings.get(v.name);
    if (g && g.length > 0) v.guardrails = g;
    const t = tested.find((x) => x.a === first?.name && x.b === v.name);
    if (!t) continue;
    const [a, b] = fig.concurrent(first!.name, v.name);
    v.versus = compareVariants(
      { name: v.name, contacts: b.contacts, count: b.metric },
      { name: a.name, contacts: a.contacts, count: a.metric },
      metric,
      t,
      tested.length,
    );
  }
  const sampleRatio = checksOf(fig, s, variants);
  const mismatch = sampleRatio.find((c) => c.mismatch);
  const k = s.variants.length;
  const family = guardrailMetricsOf(metric);
  const corrections = `Decisions read always-valid intervals: they hold however often vcw looks. The primary metric (${METRIC_WORDS[metric]}) keeps 5% over ${tested.length === 1 ? "the one pair" : `the ${tested.length} pairs of ${k} variants (Holm)`}. Guardrail metrics (${family.map((m) => GUARDRAIL_WORDS[m]).join(", ")}) share another 5%: ${Math.round((10_000 * ALPHA) / family.length) / 100}% each (Bonferroni), Holm across variants. Fixed-horizon 95% intervals are right for one look planned in advance only.`;
  const called = variants.filter((v) => v.contactsCalled > 0);
  const words =
    called.length < 2
      ? `No comparison yet: ${called.length === 0 ? "no variant has" : `only ${called[0]!.name} has`} calls (compared on ${METRIC_WORDS[metric]}).`
      : variants
          .map((v) => v.versus?.words)
          .filter((w): w is string => w !== undefined)
          .join(" ");
  const decided = [...s.decisions].sort((a, b) => a.at - b.at);
  const concurrent =
    decided.length > 0
      ? `Comparisons with a variant decided about cover the contacts planned before its decision, while both were open (${decided.map((d) => `${d.variant} ${d.action === "promote" ? "promoted" : "stopped"} ${new Date(d.at).toISOString()}`).join("; ")}).`
      : undefined;
  const exposedToTwo = fig.exposedToTwo();
  return {
    variants,
    experiment: {
      metric,
      summary: mismatch ? `The comparison is unreliable: ${mismatch.words} ${words}` : words,
      ...(s.name ? { name: s.name } : {}),
      corrections,
      sampleRatio,
      ...(concurrent ? { concurrent } : {}),
      ...(exposedToTwo > 0 ? { exposedToTwo } : {}),
    },
  };
}
