/**
 * Always-valid inference (pure): the normal-mixture boundary of Howard, Ramdas, McAuliffe and
 * Sekhon (2021, "Time-uniform, nonparametric, nonasymptotic confidence sequences", eq. 14), used
 * as Waudby-Smith et al. (2021, "Time-uniform central limit theory and asymptotic confidence
 * sequences") and GrowthBook do: an estimate's interval is the estimate ± zSequential × its
 * standard error, and it holds at every look at once. Its inverse is the mSPRT's always-valid
 * p-value (Johari, Koomen, Pekelis and Walsh 2017, "Peeking at A/B tests").
 */

/** The tuning ρ that makes the boundary narrowest at `plannedN` observations (Howard et al. 2021, §3.5). */
export function rhoFor(plannedN: number, alpha: number): number {
  const l = -2 * Math.log(alpha);
  return Math.sqrt((l + Math.log(l + 1)) / Math.max(1, plannedN));
}

/**
 * The z that replaces 1.96 after `n` observations: the estimate ± this × its standard error covers
 * the truth at every n at once with probability 1 − alpha. Wider than the fixed z always (about
 * 3.0 at the planned size for alpha 0.05), and it grows slowly past it.
 */
export function zSequential(n: number, alpha: number, rho: number): number {
  if (n <= 0) return Number.POSITIVE_INFINITY;
  const v = n * rho * rho;
  return Math.sqrt(((2 * (v + 1)) / v) * Math.log(Math.sqrt(v + 1) / alpha));
}

/**
 * The always-valid p-value of a z statistic after `n` observations: the inverse of the mixture
 * likelihood ratio (1 / Λ), so p ≤ alpha exactly when |z| ≥ zSequential(n, alpha, rho).
 */
export function alwaysValidP(z: number, n: number, rho: number): number {
  if (n <= 0 || !Number.isFinite(z)) return n <= 0 ? 1 : 0;
  const v = n * rho * rho;
  return Math.min(1, Math.sqrt(v + 1) * Math.exp((-z * z * v) / (2 * (v + 1))));
}
