import jstat from "jstat";

const { jStat } = jstat;

/** Iterations of the continued fraction: converged long before for the chi-squares vcw meets. */
const MAX_TERMS = 300;
const TINY = 1e-300;

/**
 * The upper regularized incomplete gamma function Q(a, x) = Γ(a, x) / Γ(a), exact far into its
 * tail: a chi-square's p of 1e-27 stays 1e-27, not 1 − (1 − 1e-27) = 0. Below x = a + 1 it is
 * 1 − P(a, x) from jstat's series; above, Legendre's continued fraction by the modified Lentz
 * method (Numerical Recipes, 3rd ed., §6.2), which jstat runs too but hands back only as 1 − Q.
 */
export function upperRegularizedGamma(a: number, x: number): number {
  if (!(a > 0) || !(x >= 0)) return Number.NaN;
  if (x < a + 1) return 1 - jStat.lowRegGamma(a, x);
  let b = x + 1 - a;
  let c = 1 / TINY;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i <= MAX_TERMS; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < TINY) d = TINY;
    c = b + an / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const step = d * c;
    h *= step;
    if (Math.abs(step - 1) < 1e-15) break;
  }
  return Math.exp(-x + a * Math.log(x) - jStat.gammaln(a)) * h;
}
