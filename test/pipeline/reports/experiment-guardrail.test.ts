import { describe, expect, it } from "vitest";
import { guardrailStops } from "../../../src/pipeline/reports/experiment-guardrail.ts";
import type { ReportVariant } from "../../../src/pipeline/reports/model.ts";
import { operatorDecisions } from "../../../src/pipeline/stores/experiment-actions.ts";

/** A variant with `n` contacts, `reached` of them reached and `optedOut` opted out (rates only as the guardrail reads them). */
function variant(name: string, n: number, reached: number, optedOut = 0, optOutLow = 0): ReportVariant {
  const share = (k: number, low = k / n) => ({ rate: k / n, low, high: k / n });
  return {
    name,
    contactsCalled: n,
    calls: n,
    reached,
    reachedRate: share(reached),
    meetings: 0,
    meetingRate: share(0),
    transfers: 0,
    transferRate: share(0),
    optedOut,
    optOutRate: share(optedOut, optOutLow),
    talkTime: { totalSec: 0, perContactSec: 0 },
    sentiment: {},
  };
}

const rule = { stopWorse: true, minContacts: 50 };

describe("the experiment guardrail", () => {
  it("stops a variant worse than the best with the interval clear of zero (48/80 vs 56/70), not a close one", () => {
    const stops = guardrailStops([variant("a", 80, 48), variant("b", 70, 56)], rule, "reached", new Set());
    expect(stops.map((s) => s.variant)).toEqual(["a"]);
    expect(stops[0]!.figures).toMatchObject({ against: "b", low: -0.3339, high: -0.0524 });
    expect(guardrailStops([variant("a", 80, 48), variant("b", 70, 45)], rule, "reached", new Set())).toEqual(
      [],
    );
  });

  it("judges only variants with minContacts called; never stops the last open one; stopWorse off: only opt-outs", () => {
    expect(guardrailStops([variant("a", 40, 4), variant("b", 70, 56)], rule, "reached", new Set())).toEqual(
      [],
    );
    expect(
      guardrailStops([variant("a", 80, 8), variant("b", 70, 56)], rule, "reached", new Set(["b"])),
    ).toEqual([]);
    const optOut = { stopWorse: false, minContacts: 50, maxOptOutRate: 0.1 };
    const stops = guardrailStops(
      [variant("a", 80, 60, 16, 0.13), variant("b", 80, 40, 9, 0.06), variant("c", 80, 48, 10, 0.07)],
      optOut,
      "reached",
      new Set(),
    );
    // a is the best on reach, but its opt-out rate is surely above 10%: the limit protects people first.
    expect(stops.map((s) => s.variant)).toEqual(["a"]);
    expect(stops[0]!.reason).toBe("opt-out rate 20% of 80 contacts (95%: 13%–20%) is above the limit 10%");
    // Every variant over the limit: one is kept, so someone is still called.
    const all = [variant("a", 80, 60, 16, 0.13), variant("b", 80, 40, 16, 0.13)];
    expect(guardrailStops(all, optOut, "reached", new Set())).toHaveLength(1);
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
