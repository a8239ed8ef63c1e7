import { describe, expect, it } from "vitest";
import { audienceEntryAt, DEFAULT_CALL_MODEL, planCall } from "../../src/simulator/call-plan.ts";
import { createSimClock } from "../../src/simulator/clock.ts";

describe("call plan", () => {
  it("is the same for the same seed, campaign and contact", () => {
    expect(planCall(1, "c", 3, "+14155550100", 0)).toEqual(planCall(1, "c", 3, "+14155550100", 0));
    expect(planCall(1, "c", 3, "+14155550100", 0)).not.toEqual(planCall(2, "c", 3, "+14155550100", 0));
  });

  it("dials in order of the segment, paced", () => {
    const plans = Array.from({ length: 50 }, (_, i) => planCall(1, "c", i, `+1415555${1000 + i}`, 0));
    for (let i = 1; i < plans.length; i++)
      expect(plans[i]!.dialAt).toBeGreaterThan(plans[i - 1]!.dialAt - DEFAULT_CALL_MODEL.pacingMs);
    for (const p of plans) expect(p.dialAt <= p.answerAt && p.answerAt <= p.endAt).toBe(true);
  });

  it("draws outcomes in the model's proportions", () => {
    const counts: Record<string, number> = {};
    for (let i = 0; i < 20_000; i++) {
      const { outcome } = planCall(1, "c", i, `+1${i}`, 0);
      counts[outcome] = (counts[outcome] ?? 0) + 1;
    }
    const total = Object.values(DEFAULT_CALL_MODEL.outcomes).reduce((a, b) => a + b, 0);
    for (const [outcome, weight] of Object.entries(DEFAULT_CALL_MODEL.outcomes)) {
      expect(counts[outcome]! / 20_000).toBeCloseTo(weight / total, 1);
    }
  });

  it("an entry shows the call as it is at a given time", () => {
    const plan = {
      ...planCall(1, "c", 0, "+14155550100", 0),
      outcome: "completed" as const,
      sentiment: "positive" as const,
    };
    const contact = { phone: "+14155550100", first_name: "Ana" };
    expect(audienceEntryAt(plan, contact, plan.dialAt - 1, "u").status).toBe("queued");
    expect(audienceEntryAt(plan, contact, plan.dialAt, "u").status).toBe("ringing");
    const talking = audienceEntryAt(plan, contact, plan.answerAt + 5_000, "u");
    expect(talking).toMatchObject({
      status: "in-progress",
      call_duration_in_sec: "5",
      call_sentiment: "",
      recording_url: "",
    });
    const done = audienceEntryAt(plan, contact, plan.endAt + 1, "u");
    expect(done).toMatchObject({ status: "completed", call_sentiment: "positive", recording_url: "u" });
    expect(Number(done.call_duration_in_sec)).toBe(Math.floor((plan.endAt - plan.answerAt) / 1000));
  });
});

describe("sim clock", () => {
  it("runs time-scale times faster than the real clock and can be advanced", () => {
    let real = 1_000_000;
    const clock = createSimClock(60, () => real);
    expect(clock.now()).toBe(1_000_000);
    real += 1_000;
    expect(clock.now()).toBe(1_060_000);
    // A start asked for 10 real seconds ahead comes when the real clock gets there, not 60 times sooner.
    expect(clock.atReal(real + 10_000)).toBe(clock.now() + 600_000);
    expect(clock.atReal(real - 1)).toBe(clock.now());
    clock.advance(5_000);
    expect(clock.now()).toBe(1_065_000);
    // A test's jump counts as time passed: 5 of the 10 s are gone.
    expect(clock.atReal(real + 10_000)).toBe(clock.now() + 300_000);
    expect(() => createSimClock(0)).toThrow(/positive/);
  });

  it("at real time, puts a start exactly where it was asked, however the real clock ticks meanwhile", () => {
    // A real clock that moves a millisecond at every reading (a busy machine).
    let real = 1_000_000;
    const clock = createSimClock(1, () => real++);
    // Read twice, the clock put a start asked for at +60 s a millisecond late (settle-start's flake in CI).
    expect(clock.atReal(1_060_000)).toBe(1_060_000);
  });
});
