import { describe, expect, it } from "vitest";
import { contactsPerVariant, newcombe, wilson } from "../../../src/pipeline/reports/experiment-stats.ts";

const rounded = (i: { low: number; high: number }) => [Number(i.low.toFixed(4)), Number(i.high.toFixed(4))];

describe("experiment statistics against published values", () => {
  it("Wilson's interval: Newcombe (1998), Statistics in Medicine 17:857, Table I, method 3", () => {
    expect(rounded(wilson(81, 263))).toEqual([0.2553, 0.3662]);
    expect(rounded(wilson(15, 148))).toEqual([0.0624, 0.1605]);
    expect(rounded(wilson(0, 20))).toEqual([0, 0.1611]);
    expect(rounded(wilson(1, 29))).toEqual([0.0061, 0.1718]);
    expect(wilson(0, 0)).toEqual({ value: 0, low: 0, high: 1 });
  });

  it("the difference's interval: Newcombe (1998), Statistics in Medicine 17:873, Table II, method 10", () => {
    expect(rounded(newcombe(56, 70, 48, 80))).toEqual([0.0524, 0.3339]);
    expect(rounded(newcombe(9, 10, 3, 10))).toEqual([0.1705, 0.809]);
    expect(newcombe(56, 70, 48, 80).value).toBeCloseTo(0.2, 10);
    // Swapped, mirrored.
    expect(rounded(newcombe(48, 80, 56, 70))).toEqual([-0.3339, -0.0524]);
  });

  it("contacts per variant: Fleiss without continuity correction, 95% and 80% power", () => {
    // 0.5 vs 0.6: (1.96*sqrt(2*.55*.45) + 0.8416*sqrt(.25+.24))^2 / 0.01 = 387.3
    expect(contactsPerVariant(0.5, 0.6)).toBe(388);
    expect(contactsPerVariant(0.6, 0.5)).toBe(388);
    // A smaller difference needs more: quartering the gap needs about 16 times as many.
    expect(contactsPerVariant(0.5, 0.525)! / 388).toBeGreaterThan(15);
    expect(contactsPerVariant(0.3, 0.3)).toBeUndefined();
  });
});
