import { describe, expect, it } from "vitest";
import { upperRegularizedGamma } from "../../../src/pipeline/stats/gamma-tail.ts";
import { holmRejects } from "../../../src/pipeline/stats/holm.ts";
import { contactsNeeded, minimumDetectableEffect } from "../../../src/pipeline/stats/power.ts";
import { SRM_ALARM_P, sampleRatio } from "../../../src/pipeline/stats/sample-ratio.ts";
import { alwaysValidP, rhoFor, zSequential } from "../../../src/pipeline/stats/sequential.ts";

describe("the always-valid boundary", () => {
  it("is about 3.03 at the planned size for alpha 0.05 (Howard et al. 2021, eq. 14, by hand) and wider elsewhere", () => {
    const rho = rhoFor(4000, 0.05);
    // ρ²N* = -2 ln 0.05 + ln(1 - 2 ln 0.05) = 5.9915 + 1.9447 = 7.9361.
    expect(rho * rho * 4000).toBeCloseTo(7.9361, 3);
    // z² = 2 (7.93615 + 1) / 7.93615 · ln(√8.93615 / 0.05) = 2.252012 · 4.09079 = 9.21246.
    expect(zSequential(4000, 0.05, rho)).toBeCloseTo(Math.sqrt(9.21246), 4);
    for (const n of [100, 1000, 3000, 5000, 40_000, 400_000])
      expect(zSequential(n, 0.05, rho)).toBeGreaterThan(zSequential(4000, 0.05, rho));
    expect(zSequential(0, 0.05, rho)).toBe(Number.POSITIVE_INFINITY);
  });

  it("inverts to the mSPRT's always-valid p: p = alpha exactly at the boundary, smaller beyond", () => {
    const rho = rhoFor(2000, 0.05);
    for (const n of [50, 500, 2000, 20_000])
      for (const alpha of [0.05, 0.01, 0.05 / 6]) {
        const z = zSequential(n, alpha, rho);
        expect(alwaysValidP(z, n, rho)).toBeCloseTo(alpha, 10);
        expect(alwaysValidP(z * 1.01, n, rho)).toBeLessThan(alpha);
        expect(alwaysValidP(z * 0.99, n, rho)).toBeGreaterThan(alpha);
      }
    expect(alwaysValidP(0, 100, rho)).toBe(1);
  });
});

describe("Holm's step-down", () => {
  it("rejects in order while p(j) ≤ alpha / (m - j + 1) (Holm 1979's example shape)", () => {
    // m = 4: thresholds 0.0125, 0.0167, 0.025, 0.05.
    expect(holmRejects([0.01, 0.04, 0.03, 0.005], 0.05)).toEqual([true, false, false, true]);
    expect(holmRejects([0.01, 0.015, 0.024, 0.049], 0.05)).toEqual([true, true, true, true]);
    expect(holmRejects([0.06, 0.001], 0.05)).toEqual([false, true]);
    expect(holmRejects([0.013, 0.001], 0.05)).toEqual([true, true]);
    expect(holmRejects([0.03, 0.026], 0.05)).toEqual([false, false]);
    expect(holmRejects([], 0.05)).toEqual([]);
  });
});

describe("the sample ratio check", () => {
  it("gives chi-square's textbook p-values: 3.841 (1 df) and 5.991 (2 df) at 0.05, 16.266 (3 df) at 0.001", () => {
    // Counts made to give those statistics: (n - e)² / e summed.
    const one = sampleRatio([500 + Math.sqrt(3.841 * 250) * 1, 500 - Math.sqrt(3.841 * 250)], [1, 1]);
    expect(one.chiSquare).toBeCloseTo(3.841, 6);
    expect(one.p).toBeCloseTo(0.05, 4);
    expect(sampleRatio([1000, 1000, 1000], [1, 1, 1]).p).toBe(1);
    const d = Math.sqrt((5.991 * 1000) / 2);
    expect(sampleRatio([1000 + d, 1000 - d, 1000], [1, 1, 1]).p).toBeCloseTo(0.05, 4);
    const e = Math.sqrt((16.266 * 1000) / 2);
    const three = sampleRatio([1000 + e, 1000 - e, 1000, 1000], [1, 1, 1, 1]);
    expect(three.p).toBeCloseTo(SRM_ALARM_P, 5);
  });

  it("reads shares as weights and keeps tiny p-values (a refused campaign: 30% of b never called)", () => {
    const uneven = sampleRatio([900, 100], [9, 1]);
    expect(uneven.expected).toEqual([900, 100]);
    expect(uneven.p).toBe(1);
    const refused = sampleRatio([2000, 1400], [1, 1]);
    // χ² = 2 · 300² / 1700 = 105.88; p = erfc(√(χ²/2)) ≈ 8.1e-25.
    expect(refused.chiSquare).toBeCloseTo(105.882, 3);
    expect(refused.p).toBeGreaterThan(1e-25);
    expect(refused.p).toBeLessThan(1e-23);
    expect(refused.mismatch).toBe(true);
  });
});

describe("power and the minimum detectable effect", () => {
  it("fixed-horizon: 30% vs 35% with 2,000 a variant has 92% power (the issue's figure), so its MDE at 92% is 5 points", () => {
    const fixed = { alpha: 0.05, power: 0.92 };
    expect(minimumDetectableEffect(2000, 2000, 0.3, fixed)).toBeCloseTo(0.05, 3);
    expect(contactsNeeded(0.05, 0.3, 0.5, 0.5, fixed)).toBeGreaterThan(3900);
    expect(contactsNeeded(0.05, 0.3, 0.5, 0.5, fixed)).toBeLessThan(4100);
  });

  it("unequal shares: the small variant's n decides (9:1 needs about 2.8 times the even split in all)", () => {
    const d = { alpha: 0.05, power: 0.8 };
    const even = contactsNeeded(0.03, 0.3, 0.5, 0.5, d);
    const nine = contactsNeeded(0.03, 0.3, 0.9, 0.1, d);
    // Variance factor 1/0.9 + 1/0.1 = 11.1 against 4: 2.78 times.
    expect(nine / even).toBeGreaterThan(2.7);
    expect(nine / even).toBeLessThan(2.85);
    expect(minimumDetectableEffect(900, 100, 0.3, d)).toBeGreaterThan(
      minimumDetectableEffect(500, 500, 0.3, d),
    );
  });

  it("sequential: wider than fixed-horizon (about 3.03 for 1.96 at the planned size), and needs more contacts", () => {
    const fixed = { alpha: 0.05, power: 0.8 };
    const sequential = { ...fixed, plannedPairContacts: 4000 };
    const f = minimumDetectableEffect(2000, 2000, 0.3, fixed);
    const s = minimumDetectableEffect(2000, 2000, 0.3, sequential);
    expect(s / f).toBeGreaterThan((3.035 + 0.8416) / (1.96 + 0.8416) - 0.02);
    expect(s / f).toBeLessThan((3.035 + 0.8416) / (1.96 + 0.8416) + 0.02);
    expect(contactsNeeded(0.05, 0.3, 0.5, 0.5, sequential)).toBeGreaterThan(
      contactsNeeded(0.05, 0.3, 0.5, 0.5, fixed),
    );
    expect(minimumDetectableEffect(0, 10, 0.3, fixed)).toBe(Number.POSITIVE_INFINITY);
    expect(contactsNeeded(0, 0.3, 0.5, 0.5, fixed)).toBe(Number.POSITIVE_INFINITY);
  });

  it("keeps the chi-square tail exact far out: Q(1/2, x/2) is erfc(√(x/2)) (Python's math.erfc), Q(2, 1) = 2/e", () => {
    // math.erfc(math.sqrt(105.882 / 2)) = 7.825926367252602e-25; math.erfc(math.sqrt(2)) = 0.045500263896358396
    expect(upperRegularizedGamma(0.5, 105.882 / 2) / 7.825926367252602e-25).toBeCloseTo(1, 10);
    expect(upperRegularizedGamma(0.5, 2)).toBeCloseTo(0.045500263896358396, 14);
    expect(upperRegularizedGamma(2, 1)).toBeCloseTo(2 / Math.E, 14);
    // Q(3, 1/2) = e^(−1/2) (1 + 1/2 + 1/8), below a + 1: from jstat's series.
    expect(upperRegularizedGamma(3, 0.5)).toBeCloseTo(Math.exp(-0.5) * 1.625, 12);
  });
});
