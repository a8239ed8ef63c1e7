import { holmRejects } from "../stats/holm.ts";
import { alwaysValidP, rhoFor, zSequential } from "../stats/sequential.ts";
import { wilson } from "./experiment-stats.ts";

/** The level every experiment decision is held to: at most 5% false decisions, however often vcw looks. */
export const ALPHA = 0.05;

/** One difference to test: b's estimate less a's, its standard error, and the contacts behind it. */
export interface Difference {
  a: string;
  b: string;
  difference: number;
  se: number;
  /** Contacts of the two variants together, and how many the interval is tuned for. */
  contacts: number;
  plannedContacts: number;
}

/** A difference tested: its always-valid p, Holm's answer, and the sequential interval at Holm's level for it. */
export interface TestedDifference extends Difference {
  p: number;
  rejected: boolean;
  /** The level Holm held this comparison to (alpha over the comparisons left at its step). */
  level: number;
  low: number;
  high: number;
}

/** Rate difference of k2/n2 over k1/n1, with the unpooled standard error (the z test's, as GrowthBook's). */
export function rateDifference(k1: number, n1: number, k2: number, n2: number) {
  const p1 = n1 > 0 ? k1 / n1 : 0;
  const p2 = n2 > 0 ? k2 / n2 : 0;
  const se = n1 > 0 && n2 > 0 ? Math.sqrt((p1 * (1 - p1)) / n1 + (p2 * (1 - p2)) / n2) : Number.NaN;
  return { difference: p2 - p1, se };
}

/** Mean difference of two samples given as count, sum and sum of squares (Welch's standard error). */
export function meanDifference(
  a: { n: number; sum: number; squares: number },
  b: { n: number; sum: number; squares: number },
) {
  const mean = (s: typeof a) => (s.n > 0 ? s.sum / s.n : 0);
  const varOf = (s: typeof a) => (s.n > 1 ? Math.max(0, (s.squares - s.n * mean(s) ** 2) / (s.n - 1)) : 0);
  const se = a.n > 1 && b.n > 1 ? Math.sqrt(varOf(a) / a.n + varOf(b) / b.n) : Number.NaN;
  return { difference: mean(b) - mean(a), se };
}

/** The always-valid p of a difference: 1 without data, 0 for a difference with no noise at all. */
function pOf(d: Difference, rho: number): number {
  if (!Number.isFinite(d.se) || d.contacts <= 0) return 1;
  if (d.se === 0) return d.difference === 0 ? 1 : 0;
  return alwaysValidP(d.difference / d.se, d.contacts, rho);
}

/**
 * A family of differences tested at once, always-valid and Holm-corrected at `alpha`: each gets
 * its p, whether it is rejected, and its sequential interval at the level Holm held it to, so an
 * interval clears zero exactly when its difference is rejected.
 */
export function testDifferences(family: readonly Difference[], alpha: number): TestedDifference[] {
  const rhos = family.map((d) => rhoFor(d.plannedContacts, ALPHA));
  const ps = family.map((d, i) => pOf(d, rhos[i]!));
  const rejected = holmRejects(ps, alpha);
  const m = family.length;
  const rank = ps.map((_, i) => i).sort((x, y) => ps[x]! - ps[y]!);
  const accepted = alpha / (m - rejected.filter(Boolean).length || 1);
  return family.map((d, i) => {
    const level = rejected[i] ? alpha / (m - rank.indexOf(i)) : accepted;
    const half = Number.isFinite(d.se)
      ? zSequential(d.contacts, level, rhos[i]!) * d.se
      : Number.POSITIVE_INFINITY;
    return {
      ...d,
      p: ps[i]!,
      rejected: rejected[i]!,
      level,
      low: d.difference - half,
      high: d.difference + half,
    };
  });
}

/** One variant's count against a limit on its share (the opt-out limit). */
export interface OverLimit {
  name: string;
  rate: number;
  p: number;
  rejected: boolean;
  level: number;
  /** The sequential Wilson interval at that level: rejected exactly when `low` is above the limit. */
  low: number;
  high: number;
}

/**
 * Which variants' rates are surely above `limit`, always-valid and Holm-corrected at `alpha`
 * across them: the score test (the variance at the limit, as Wilson's interval inverts), its
 * sequential interval Wilson's with the sequential z. Only a rate above the limit is evidence.
 */
export function testLimit(
  arms: readonly { name: string; contacts: number; count: number; plannedContacts: number }[],
  limit: number,
  alpha: number,
): OverLimit[] {
  const rhos = arms.map((a) => rhoFor(a.plannedContacts, ALPHA));
  const ps = arms.map((a, i) => {
    if (a.contacts <= 0 || a.count / a.contacts <= limit) return 1;
    const z = (a.count / a.contacts - limit) / Math.sqrt((limit * (1 - limit)) / a.contacts);
    return alwaysValidP(z, a.contacts, rhos[i]!);
  });
  const rejected = holmRejects(ps, alpha);
  const rank = ps.map((_, i) => i).sort((x, y) => ps[x]! - ps[y]!);
  const accepted = alpha / (arms.length - rejected.filter(Boolean).length || 1);
  return arms.map((a, i) => {
    const level = rejected[i] ? alpha / (arms.length - rank.indexOf(i)) : accepted;
    const w = wilson(a.count, a.contacts, zSequential(a.contacts, level, rhos[i]!));
    return {
      name: a.name,
      rate: w.value,
      p: ps[i]!,
      rejected: rejected[i]!,
      level,
      low: w.low,
      high: w.high,
    };
  });
}

/**
 * The guardrail metrics besides the primary one: opt-outs (against the limit), transfers and talk
 * time. They share one 5% among them (Bonferroni), the primary metric keeps its own 5% (as
 * Optimizely's Stats Engine keeps the primary metric out of the correction).
 */
export function guardrailMetricsOf(primary: string): ("optOuts" | "transfers" | "talkTime")[] {
  return (["optOuts", "transfers", "talkTime"] as const).filter((m) => m !== primary);
}
