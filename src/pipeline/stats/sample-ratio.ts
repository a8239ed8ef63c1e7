import { upperRegularizedGamma } from "./gamma-tail.ts";

/** Below this p the split is called a sample ratio mismatch (Fabijan et al. 2019's threshold). */
export const SRM_ALARM_P = 0.001;

export interface SampleRatio {
  /** Pearson's chi-square of the counts against the shares, its degrees of freedom and p. */
  chiSquare: number;
  df: number;
  p: number;
  /** Each count's expected value under the shares. */
  expected: number[];
  /** p < SRM_ALARM_P. */
  mismatch: boolean;
}

/**
 * The sample ratio check (Fabijan, Gupchup, Gupta et al. 2019, "Diagnosing sample ratio mismatch
 * in online controlled experiments"): counts of units per variant tested against the planned
 * shares by Pearson's chi-square. p from the upper regularized incomplete gamma function, exact
 * far into the tail (a p of 1e-27 is not rounded to 0).
 */
export function sampleRatio(counts: readonly number[], shares: readonly number[]): SampleRatio {
  const total = counts.reduce((a, b) => a + b, 0);
  const weight = shares.reduce((a, b) => a + b, 0);
  const expected = shares.map((s) => (total * s) / weight);
  const chiSquare = counts.reduce(
    (sum, n, i) => sum + (expected[i]! > 0 ? (n - expected[i]!) ** 2 / expected[i]! : 0),
    0,
  );
  const df = counts.length - 1;
  const p = df < 1 || total === 0 ? 1 : upperRegularizedGamma(df / 2, chiSquare / 2);
  return { chiSquare, df, p, expected, mismatch: p < SRM_ALARM_P };
}
