/**
 * The statistics of an experiment's comparison: pure, no dependency (a few lines each, checked
 * against published values in test/pipeline/reports/experiment-stats.test.ts).
 */

/** z of a two-sided 95% interval. */
export const Z95 = 1.959964;
/** z of 80% power (one-sided). */
const Z80 = 0.841621;

export interface Interval {
  /** The estimate. */
  value: number;
  low: number;
  high: number;
}

/** Wilson's score interval for k successes in n trials (Wilson 1927): sound near 0 and 1, and for small n. */
export function wilson(k: number, n: number, z = Z95): Interval {
  if (n === 0) return { value: 0, low: 0, high: 1 };
  const p = k / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return { value: p, low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/**
 * The interval of p1 - p2 by Newcombe's hybrid score method (1998, method 10): each proportion's
 * Wilson interval combined, so it stays inside [-1, 1] and is sound with few successes.
 */
export function newcombe(k1: number, n1: number, k2: number, n2: number, z = Z95): Interval {
  const a = wilson(k1, n1, z);
  const b = wilson(k2, n2, z);
  const d = a.value - b.value;
  const below = Math.sqrt((a.value - a.low) ** 2 + (b.high - b.value) ** 2);
  const above = Math.sqrt((a.high - a.value) ** 2 + (b.value - b.low) ** 2);
  return { value: d, low: d - below, high: d + above };
}

/**
 * Contacts each variant needs to tell p1 from p2 apart at 95% confidence with 80% power (Fleiss'
 * formula without continuity correction); undefined when they are equal (no size would).
 */
export function contactsPerVariant(p1: number, p2: number): number | undefined {
  const delta = Math.abs(p1 - p2);
  if (delta === 0) return undefined;
  const pooled = (p1 + p2) / 2;
  const root = Z95 * Math.sqrt(2 * pooled * (1 - pooled)) + Z80 * Math.sqrt(p1 * (1 - p1) + p2 * (1 - p2));
  return Math.ceil((root * root) / (delta * delta));
}

/** Four decimals: what the report's JSON shows of a share. */
export const round4 = (x: number) => Math.round(x * 10_000) / 10_000;
