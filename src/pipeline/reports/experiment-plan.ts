import { contactsNeeded, type Design, minimumDetectableEffect } from "../stats/power.ts";
import { ALPHA } from "./experiment-tests.ts";
import { num, pct } from "./format.ts";

/** What an experiment can find before it starts: per variant against the first, fixed-horizon and always-valid. */
export interface ExperimentPlan {
  contacts: number;
  baseRate: number;
  /** The contacts the always-valid intervals are tuned for (`plannedContacts`). */
  plannedContacts: number;
  /** Comparisons alpha is shared by (every pair, Holm), and the level of the first step (the plan's, conservative). */
  comparisons: number;
  alpha: number;
  power: number;
  rows: {
    variant: string;
    against: string;
    contacts: number;
    againstContacts: number;
    fixed: number;
    sequential: number;
  }[];
  /** For a stated effect: contacts needed in all, so the smallest pair finds it with the power asked. */
  effect?: { effect: number; fixed: number; sequential: number } | undefined;
}

const POWER = 0.8;

/**
 * The plan of an experiment of `contacts` split by the variants' shares, against a stated base
 * rate: each variant's minimum detectable effect against the first at 80% power, fixed-horizon
 * (one look at 5%) and always-valid as the guardrail decides (5% over every pair; the plan takes
 * Holm's first step, alpha / pairs, so it promises no more than the guardrail keeps), and, for a
 * stated effect, the contacts needed. Pure.
 */
export function experimentPlan(
  variants: readonly { name: string; share: number }[],
  o: { contacts: number; baseRate: number; plannedContacts: number; effect?: number | undefined },
): ExperimentPlan {
  const total = variants.reduce((s, v) => s + v.share, 0);
  const k = variants.length;
  const comparisons = (k * (k - 1)) / 2;
  const alpha = ALPHA / comparisons;
  const [first, ...rest] = variants;
  const fixed = (): Design => ({ alpha, power: POWER });
  const sequential = (pairShare: number): Design => ({
    alpha,
    power: POWER,
    plannedPairContacts: o.plannedContacts * pairShare,
    tuningAlpha: ALPHA,
  });
  const rows = rest.map((v) => {
    const nA = (o.contacts * first!.share) / total;
    const nB = (o.contacts * v.share) / total;
    const pair = (first!.share + v.share) / total;
    return {
      variant: v.name,
      against: first!.name,
      contacts: Math.floor(nB),
      againstContacts: Math.floor(nA),
      fixed: minimumDetectableEffect(nA, nB, o.baseRate, fixed()),
      sequential: minimumDetectableEffect(nA, nB, o.baseRate, sequential(pair)),
    };
  });
  let effect: ExperimentPlan["effect"];
  if (o.effect !== undefined) {
    // The smallest variant against the first decides how many are needed.
    const smallest = rest.reduce((a, b) => (b.share < a.share ? b : a), rest[0]!);
    const [fa, fb] = [first!.share / total, smallest.share / total];
    effect = {
      effect: o.effect,
      fixed: contactsNeeded(o.effect, o.baseRate, fa, fb, fixed()),
      sequential: contactsNeeded(o.effect, o.baseRate, fa, fb, sequential(fa + fb)),
    };
  }
  return {
    contacts: o.contacts,
    baseRate: o.baseRate,
    plannedContacts: o.plannedContacts,
    comparisons,
    alpha,
    power: POWER,
    rows,
    effect,
  };
}

const pts = (x: number) => (Number.isFinite(x) ? `${Math.round(x * 1000) / 10} pts` : "none at this size");

/** The plan in lines a manager reads (docs/experiments.md says what each means). */
export function planLines(p: ExperimentPlan): string[] {
  const level =
    p.comparisons > 1
      ? `${Math.round(p.alpha * 10_000) / 100}% each of ${p.comparisons} comparisons (5% over every pair, Holm)`
      : "5%";
  const lines = [
    `${num(p.contacts)} contacts, base rate ${pct(p.baseRate)}; always-valid intervals tuned for ${num(p.plannedContacts)} contacts (campaign.experiment.plannedContacts); alpha ${level}; power ${pct(p.power)}.`,
    "Minimum detectable effect (the smallest true difference found 80% of the time):",
    ...p.rows.map(
      (r) =>
        `- ${r.variant} (${num(r.contacts)}) against ${r.against} (${num(r.againstContacts)}): ${pts(r.sequential)} as the guardrail decides (always-valid, looking after every poll); ${pts(r.fixed)} fixed-horizon (one look at the end)`,
    ),
  ];
  if (p.effect)
    lines.push(
      `To find ${pts(p.effect.effect)} with 80% power: ${Number.isFinite(p.effect.sequential) ? num(p.effect.sequential) : "no number of"} contacts in all as the guardrail decides; ${Number.isFinite(p.effect.fixed) ? num(p.effect.fixed) : "no number of"} fixed-horizon.`,
    );
  return lines;
}
