import { describe, expect, it } from "vitest";
import { type GuardrailArm, guardrailStops } from "../../../src/pipeline/reports/experiment-guardrail.ts";
import { createRandom } from "../../../src/simulator/prng.ts";

/**
 * The guardrail, simulated through vcw's own decision code (guardrailStops), as issue 41 audited
 * it: experiments of 4,000 contacts split evenly, looked at after every tenth of a look's worth of
 * calls (1, 40 or 400 looks), each contact reached or opted out by a seeded coin.
 */
interface Scenario {
  /** Each variant's true rate on the metric and of opting out. */
  reach: number[];
  optOut: number[];
  looks: number;
  runs: number;
  rule: { stopWorse: boolean; minContacts: number; maxOptOutRate?: number };
  seed: number;
}

const CONTACTS = 4_000;

/** The share of runs in which the guardrail stopped some variant, and in which it stopped the first. */
function simulate(s: Scenario): { anyStop: number; firstStopped: number } {
  const random = createRandom(s.seed);
  const k = s.reach.length;
  let anyStop = 0;
  let firstStopped = 0;
  for (let run = 0; run < s.runs; run += 1) {
    const arms: GuardrailArm[] = s.reach.map((_, i) => ({
      name: String.fromCharCode(97 + i),
      share: 1,
      contacts: 0,
      metric: 0,
      optedOut: 0,
    }));
    const stopped = new Set<string>();
    for (let look = 1; look <= s.looks; look += 1) {
      const upTo = Math.round((CONTACTS * look) / s.looks);
      for (let c = arms.reduce((n, a) => n + a.contacts, 0); c < upTo; c += 1) {
        const i = c % k;
        const arm = arms[i]!;
        arm.contacts += 1;
        if (random() < s.reach[i]!) arm.metric += 1;
        if (random() < s.optOut[i]!) arm.optedOut += 1;
      }
      const stops = guardrailStops({ arms, stopped, plannedContacts: CONTACTS }, { ...s.rule }, "reached");
      for (const stop of stops) stopped.add(stop.variant);
      if (stopped.size > 0 && !s.rule.stopWorse) break;
      if (stopped.has("a")) break;
    }
    if (stopped.size > 0) anyStop += 1;
    if (stopped.has("a")) firstStopped += 1;
  }
  return { anyStop: anyStop / s.runs, firstStopped: firstStopped / s.runs };
}

const same = (k: number, rate: number) => Array.from({ length: k }, () => rate);

describe("the guardrail may look after every poll", () => {
  // 2,000 runs: a false-stop rate's standard error is at most 0.5 points (at 5%). Each bound below
  // is 5%: a true rate of 5% would pass about half the time, so a rate found under 5% with a
  // margin of several standard errors is what this test shows (the rates are in docs/experiments.md).
  const RUNS = 2_000;
  for (const k of [2, 3, 4])
    it(`A/A on the metric, ${k} variants at 30%, 400 looks: a variant is stopped in at most 5% of runs`, () => {
      const r = simulate({
        reach: same(k, 0.3),
        optOut: same(k, 0),
        looks: 400,
        runs: RUNS,
        rule: { stopWorse: true, minContacts: 50 },
        seed: 41_000 + k,
      });
      expect(r.anyStop).toBeLessThanOrEqual(0.05);
    });

  for (const k of [2, 3, 4])
    it(`the opt-out limit at its boundary (${k} variants at exactly 2%), 400 looks: stopped in at most 5% of runs`, () => {
      const r = simulate({
        reach: same(k, 0.3),
        optOut: same(k, 0.02),
        looks: 400,
        runs: RUNS,
        rule: { stopWorse: false, minContacts: 50, maxOptOutRate: 0.02 },
        seed: 42_000 + k,
      });
      expect(r.anyStop).toBeLessThanOrEqual(0.05);
    });

  it("keeps power: a true 30% vs 35% is found (the worse one stopped) by 4,000 contacts in at least 70% of runs", () => {
    // The fixed-horizon test at one look would find it in 92%: the price of looking 400 times.
    const r = simulate({
      reach: [0.3, 0.35],
      optOut: [0, 0],
      looks: 400,
      runs: RUNS,
      rule: { stopWorse: true, minContacts: 50 },
      seed: 43_000,
    });
    expect(r.firstStopped).toBeGreaterThanOrEqual(0.7);
    expect(r.anyStop).toBe(r.firstStopped);
  });
});
