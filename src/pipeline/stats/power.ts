import jstat from "jstat";
import { rhoFor, zSequential } from "./sequential.ts";

const { jStat } = jstat;

/** How a two-variant comparison is judged: its level, the power wanted, and whether it is sequential. */
export interface Design {
  /** The level of one comparison (already divided among the comparisons it shares alpha with). */
  alpha: number;
  /** The chance of finding a true effect of the size asked about: 0.8 by convention. */
  power: number;
  /** Sequential: the contacts of the two variants the interval is tuned for (its ρ); absent: fixed-horizon. */
  plannedPairContacts?: number | undefined;
  /** The overall alpha ρ is tuned for (the guardrail's: 0.05). */
  tuningAlpha?: number | undefined;
}

/** The critical z of the design after `pairContacts` contacts of the two variants. */
export function criticalZ(d: Design, pairContacts: number): number {
  if (d.plannedPairContacts === undefined) return jStat.normal.inv(1 - d.alpha / 2, 0, 1);
  const rho = rhoFor(d.plannedPairContacts, d.tuningAlpha ?? d.alpha);
  return zSequential(pairContacts, d.alpha, rho);
}

const variance = (p: number) => p * (1 - p);

/**
 * The minimum detectable effect (absolute, in rate) of variant B over A with nA and nB contacts
 * and a base rate: the smallest true rise the test finds with the design's power, at its last look
 * (a sequential test may stop earlier, which only adds power). Unequal shares: each arm's own n.
 */
export function minimumDetectableEffect(nA: number, nB: number, baseRate: number, d: Design): number {
  if (nA <= 0 || nB <= 0) return Number.POSITIVE_INFINITY;
  const z = criticalZ(d, nA + nB) + jStat.normal.inv(d.power, 0, 1);
  let effect = 0;
  // A fixed point: B's variance depends on the effect; a few steps settle it to 1e-9.
  for (let i = 0; i < 60; i += 1) {
    const p = Math.min(1, baseRate + effect);
    const next = z * Math.sqrt(variance(baseRate) / nA + variance(p) / nB);
    if (Math.abs(next - effect) < 1e-12) break;
    effect = next;
  }
  return effect;
}

/**
 * Contacts, both variants together, needed to find a true rise of `effect` over `baseRate` with
 * the design's power, the variants taking `fractionA` and `fractionB` of them (1/2 each when even).
 */
export function contactsNeeded(
  effect: number,
  baseRate: number,
  fractionA: number,
  fractionB: number,
  d: Design,
): number {
  if (effect <= 0 || baseRate + effect > 1) return Number.POSITIVE_INFINITY;
  const v = variance(baseRate) / fractionA + variance(baseRate + effect) / fractionB;
  const zPower = jStat.normal.inv(d.power, 0, 1);
  let n = ((jStat.normal.inv(1 - d.alpha / 2, 0, 1) + zPower) ** 2 * v) / effect ** 2;
  // Sequential: the critical z depends on n (slowly, a logarithm): iterate to the fixed point.
  for (let i = 0; i < 100 && d.plannedPairContacts !== undefined; i += 1) {
    const next = ((criticalZ(d, n * (fractionA + fractionB)) + zPower) ** 2 * v) / effect ** 2;
    if (Math.abs(next - n) < 0.5) break;
    n = next;
  }
  return Math.ceil(n);
}
