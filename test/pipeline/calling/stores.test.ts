import { describe, expect, it } from "vitest";
import { RULE_SETS } from "../../../src/calling-rules/index.ts";
import type { Plan } from "../../../src/pipeline/calling/plan-campaigns.ts";
import { createCallFrequency } from "../../../src/pipeline/stores/call-frequency.ts";
import { budgetBuckets, createDialerBudgets } from "../../../src/pipeline/stores/dialer-budget.ts";
import { createPaceStore } from "../../../src/pipeline/stores/pace-store.ts";
import { createPlanStore } from "../../../src/pipeline/stores/plan-store.ts";
import { useRedis } from "../../support/redis.ts";

const FLORIDA = RULE_SETS.us!.regions.FL!.caps;
const HOUR = 3_600_000;

describe("call frequency store (real Redis)", () => {
  const { redis, keys } = useRedis();

  it("counts each campaign once, refuses the 4th call in 24 h under Florida's cap, and the cooldown", async () => {
    const k = keys();
    const f = createCallFrequency(redis, k, { keepMs: 8 * 86_400_000 });
    const phone = "+13055550101";
    const t0 = Date.now();
    expect(await f.reserve(phone, "job:a:1:0", t0, 0, FLORIDA)).toBe("ok");
    // A retried step with the same campaign key counts nothing more.
    expect(await f.reserve(phone, "job:a:1:0", t0, 0, FLORIDA)).toBe("ok");
    expect(await f.reserve(phone, "job:b:1:0", t0 + HOUR, 0, FLORIDA)).toBe("ok");
    expect(await f.reserve(phone, "job:c:1:0", t0 + 2 * HOUR, 0, FLORIDA)).toBe("ok");
    expect(await f.reserve(phone, "job:d:1:0", t0 + 3 * HOUR, 0, FLORIDA)).toBe("cap");
    expect(await f.reserve(phone, "job:d:1:0", t0 + 25 * HOUR, 0, FLORIDA)).toBe("ok");
    expect((await f.callTimes([phone], t0)).get(phone)).toEqual([
      t0,
      t0 + HOUR,
      t0 + 2 * HOUR,
      t0 + 25 * HOUR,
    ]);
    // The cooldown: another campaign within 7 days is refused unless forced (follow-ups).
    const other = "+13055550199";
    expect(await f.reserve(other, "job:a:1:0", t0, 7 * 86_400_000, [])).toBe("ok");
    expect(await f.reserve(other, "job:b:1:0", t0 + HOUR, 7 * 86_400_000, [])).toBe("recent");
    expect(await f.reserve(other, "job:a:1:1", t0 + HOUR, 7 * 86_400_000, [], true)).toBe("ok");
    // Bounded: both keys expire.
    expect(await redis.pttl(k.callTimes(phone))).toBeGreaterThan(0);
    expect(await redis.pttl(k.calls(phone))).toBeGreaterThan(0);
  });

  it("learns a dialer's pace from polls, each poll version once, busy time only", async () => {
    const k = keys();
    const pace = createPaceStore(redis, k);
    const t = 1_800_000_000_000;
    expect(await pace.pace("d1")).toBeUndefined();
    await pace.observe("d1", { campaignId: "c1", ended: 0, pending: 100, version: 1, now: t });
    for (let v = 2; v <= 7; v++)
      await pace.observe("d1", {
        campaignId: "c1",
        ended: 6,
        pending: 100 - 6 * (v - 1),
        version: v,
        now: t + (v - 1) * 120_000,
      });
    // A retried commit of version 7 adds nothing.
    await pace.observe("d1", { campaignId: "c1", ended: 6, pending: 64, version: 7, now: t + 6 * 120_000 });
    const learned = await pace.pace("d1");
    // 36 calls in 12 minutes, slightly decayed: about 3 a minute.
    expect(learned).toBeGreaterThan(2.9);
    expect(learned).toBeLessThan(3.1);
    expect(await redis.pttl(k.pace("d1"))).toBeGreaterThan(0);
  });

  it("a file is planned once: a retry and a racing worker get the first plan", async () => {
    const k = keys();
    const planOf = (n: number): Plan => ({
      campaigns: [],
      later: { contacts: n, windowFull: n, frequencyCap: 0 },
      skipped: {},
      skips: [],
    });
    const plans = createPlanStore(redis, k);
    let made = 0;
    const make = (n: number) => async () => {
      made += 1;
      return planOf(n);
    };
    const [a, b] = await Promise.all([
      plans.once<Plan>("job:sha:1", make(1)),
      plans.once<Plan>("job:sha:1", make(2)),
    ]);
    expect(b).toEqual(a);
    expect(await plans.once<Plan>("job:sha:1", make(3))).toEqual(a);
    expect(made).toBeLessThanOrEqual(2);
    expect(await redis.pttl(k.callingPlan("job:sha:1"))).toBeGreaterThan(0);
  });
});

describe("dialer budgets (real Redis, issue 47)", () => {
  const { redis, keys } = useRedis();
  const number = "+14152000100";
  const at = Date.parse("2027-01-12T15:20:00Z");

  it("grants at most perDay across concurrent grants, the same again on a retry, and expires", async () => {
    const k = keys();
    const budgets = createDialerBudgets(redis, k);
    // Two workers' worth of grants at once, 3 calls each: 10 a day can't be passed.
    const granted = await Promise.all(
      Array.from({ length: 8 }, (_, i) => budgets.grant(number, `campaign-${i}`, 3, at, { perDay: 10 })),
    );
    expect(granted.reduce((a, b) => a + b, 0)).toBe(10);
    expect(await budgets.used(number, at)).toEqual({ day: 10, hour: 10 });
    // A retried step meets its own grant; a new one finds the day spent; the next day is fresh.
    expect(await budgets.grant(number, "campaign-0", 3, at, { perDay: 10 })).toBe(granted[0]);
    expect(await budgets.grant(number, "late", 1, at, { perDay: 10 })).toBe(0);
    expect(await budgets.grant(number, "late", 1, at + 86_400_000, { perDay: 10 })).toBe(1);
    const ttl = await redis.ttl(k.dialerBudget(number, budgetBuckets(at).day));
    expect(ttl).toBeGreaterThan(2 * 86_400);
    expect(ttl).toBeLessThanOrEqual(3 * 86_400);
  });

  it("an hourly budget holds within the day's, and an unlimited number is still counted", async () => {
    const budgets = createDialerBudgets(redis, keys());
    expect(await budgets.grant(number, "a", 5, at, { perDay: 10, perHour: 4 })).toBe(4);
    expect(await budgets.grant(number, "b", 5, at + 3_600_000, { perDay: 10, perHour: 4 })).toBe(4);
    expect(await budgets.grant(number, "c", 5, at + 7_200_000, { perDay: 10, perHour: 4 })).toBe(2);
    expect(await budgets.grant("+12122000100", "d", 50, at, {})).toBe(50);
    expect((await budgets.used("+12122000100", at)).day).toBe(50);
  });
});
