import { describe, expect, it } from "vitest";
import { type GuardrailArm, guardrailStops } from "../../../src/pipeline/reports/experiment-guardrail.ts";
import { operatorDecisions } from "../../../src/pipeline/stores/experiment-actions.ts";

/** A variant with `n` contacts, `reached` of them reached and `optedOut` opted out. */
const arm = (name: string, contacts: number, metric: number, optedOut = 0): GuardrailArm => ({
  name,
  share: 1,
  contacts,
  metric,
  optedOut,
});

const rule = { stopWorse: true, minContacts: 50 };
const judge = (arms: GuardrailArm[], r: Parameters<typeof guardrailStops>[1] = rule, o = {}) =>
  guardrailStops({ arms, stopped: new Set(), plannedContacts: 5000, ...o }, r, "reached");

describe("the experiment guardrail", () => {
  it("stops a variant surely worse by the always-valid interval (300/1000 vs 380/1000), not one a fixed 95% interval alone would (48/80 vs 56/70)", () => {
    const stops = judge([arm("a", 1000, 300), arm("b", 1000, 380)]);
    expect(stops.map((s) => s.variant)).toEqual(["a"]);
    // z = 0.08 / 0.0211 = 3.79 against the boundary's 3.04 at 2,000 of a pair planned for 5,000.
    expect(stops[0]!.figures).toMatchObject({ against: "b", difference: -0.08, level: 0.05 });
    expect(Number(stops[0]!.figures.high)).toBeLessThan(0);
    expect(Number(stops[0]!.figures.low)).toBeGreaterThan(-0.16);
    expect(stops[0]!.reason).toMatch(
      /^a is worse than b on contacts reached: 30% of 1,000 vs 38% of 1,000 \(always-valid interval of the difference −\d+(\.\d)? pts to −\d+(\.\d)? pts, at 5%\); the data tells them apart\.$/,
    );
    // Newcombe's fixed 95% interval of 48/80 vs 56/70 is clear of zero (−33 to −5 pts): one look's answer, not a guardrail's.
    expect(judge([arm("a", 80, 48), arm("b", 70, 56)])).toEqual([]);
    expect(judge([arm("a", 1000, 300), arm("b", 1000, 340)])).toEqual([]);
  });

  it("three variants: every pair tested, Holm over the three", () => {
    const stops = judge([arm("a", 1000, 300), arm("b", 1000, 380), arm("c", 1000, 385)]);
    expect(stops.map((s) => s.variant)).toEqual(["a"]);
    expect(stops[0]!.reason).toMatch(/Holm over 3 comparisons/);
    expect(Number(stops[0]!.figures.level)).toBeCloseTo(0.05 / 3, 10);
  });

  it("judges only variants with minContacts called; never stops the last open one; stopWorse off: only opt-outs", () => {
    expect(judge([arm("a", 40, 4), arm("b", 70, 56)])).toEqual([]);
    expect(
      guardrailStops(
        { arms: [arm("a", 2000, 200), arm("b", 2000, 1600)], stopped: new Set(["b"]), plannedContacts: 5000 },
        rule,
        "reached",
      ),
    ).toEqual([]);
    const optOut = { stopWorse: false, minContacts: 50, maxOptOutRate: 0.1 };
    const stops = judge([arm("a", 400, 300, 80), arm("b", 400, 200, 44), arm("c", 400, 240, 40)], optOut);
    // a is the best on reach, but its opt-out rate is surely above 10%: the limit protects people first.
    expect(stops.map((s) => s.variant)).toEqual(["a"]);
    expect(stops[0]!.reason).toMatch(
      /^opt-out rate 20% of 400 contacts \(always-valid interval 1\d(\.\d)?%–2\d(\.\d)?%\) is above the limit 10%$/,
    );
    // Every variant over the limit: one is kept, so someone is still called.
    expect(judge([arm("a", 400, 300, 80), arm("b", 400, 200, 80)], optOut)).toHaveLength(1);
  });

  it("a sample ratio mismatch holds the comparisons, not the opt-out limit", () => {
    const both = { stopWorse: true, minContacts: 50, maxOptOutRate: 0.1 };
    const arms = [arm("a", 1000, 300, 200), arm("b", 1000, 380, 10), arm("c", 1000, 500, 10)];
    expect(judge(arms, both).map((s) => s.variant)).toEqual(["a", "b"]);
    const held = judge(arms, both, { mismatch: "b got 30% fewer contacts than its share" });
    expect(held.map((s) => s.variant)).toEqual(["a"]);
    expect(held[0]!.reason).toMatch(/^opt-out rate/);
  });
});

describe("an operator's decisions", () => {
  const names = ["a", "b", "c"];
  it("stop one; refuse the unknown, the decided and the last open; promote stops the rest", () => {
    expect(operatorDecisions("stop", "a", names, [], 1)).toMatchObject([
      { variant: "a", action: "stop", by: "operator" },
    ]);
    expect(operatorDecisions("stop", "x", names, [], 1)).toEqual({
      error: 'the job has no variant "x" (variants: a, b, c)',
    });
    const aStopped = operatorDecisions("stop", "a", names, [], 1) as never[];
    expect(operatorDecisions("stop", "a", names, aStopped, 2)).toMatchObject({
      error: expect.stringMatching(/^a was stopped already/),
    });
    const bStopped = [...aStopped, ...(operatorDecisions("stop", "b", names, aStopped, 2) as never[])];
    expect(operatorDecisions("stop", "c", names, bStopped, 3)).toMatchObject({
      error: expect.stringMatching(/last variant/),
    });
    const promoted = operatorDecisions("promote", "b", names, aStopped, 4);
    expect(promoted).toMatchObject([
      { variant: "b", action: "promote" },
      { variant: "c", action: "stop", reason: "b was promoted" },
    ]);
  });
});
