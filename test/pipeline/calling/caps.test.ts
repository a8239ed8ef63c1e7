import { describe, expect, it } from "vitest";
import { type CallTime, fitsCaps, mostInOneWindow } from "../../../src/pipeline/calling/frequency.ts";
import { createCallFrequency } from "../../../src/pipeline/stores/call-frequency.ts";
import { createRandom } from "../../../src/simulator/prng.ts";
import { useRedis } from "../../support/redis.ts";

/**
 * Issue 31 item 8: a cap holds over every window of its period that could contain the calls,
 * whatever the order the reservations arrive in, a reservation counting for the whole span its
 * campaign may dial in. Checked against a brute force (every window start, one by one) and on
 * real Redis, where the same check runs in Lua.
 */
const HOUR = 3_600_000;
const FLORIDA = [{ calls: 3, perHours: 24 }];

/** Every window [s, s + p) with s in whole units that holds an instant of [from, until]: the most calls it can hold. */
function bruteForce(calls: readonly CallTime[], p: number, from: number, until: number): number {
  let most = 0;
  for (let s = from - p + 1; s <= until; s += 1) {
    const n = calls.filter((c) => {
      const [a, b] = typeof c === "number" ? [c, c] : c;
      return a < s + p && b >= s;
    }).length;
    most = Math.max(most, n);
  }
  return most;
}

describe("caps over any window that could contain the calls", () => {
  it("the count agrees with a brute force over every window, for instants and spans", () => {
    const next = createRandom(31);
    for (let round = 0; round < 400; round += 1) {
      const calls: CallTime[] = Array.from({ length: Math.floor(next() * 6) }, () => {
        const a = Math.floor(next() * 100);
        return next() < 0.5 ? a : [a, a + Math.floor(next() * 30)];
      });
      const p = 5 + Math.floor(next() * 40);
      const from = Math.floor(next() * 100);
      const until = from + Math.floor(next() * 20);
      expect(mostInOneWindow(calls, p, from, until), JSON.stringify({ calls, p, from, until })).toBe(
        bruteForce(calls, p, from, until),
      );
    }
  });

  it("a call before the others counts them: 3 per 24 h refuses the 4th whichever order they came in", () => {
    const t = 1_800_000_000_000;
    // Reservations arriving latest first: the old check counted only calls at or before the new one.
    const later = [t + 8 * HOUR, t + 7 * HOUR, t + 6 * HOUR];
    expect(fitsCaps(later, FLORIDA, t)).toBe(false);
    // A reservation is its campaign's whole window: one that may dial until t + 20 h and one
    // from t + 40 h fit in one 24 h with a call between them.
    const spans: CallTime[] = [
      [t, t + 20 * HOUR],
      [t + 23 * HOUR, t + 30 * HOUR],
      [t + 40 * HOUR, t + 44 * HOUR],
    ];
    expect(fitsCaps(spans, FLORIDA, t + 45 * HOUR)).toBe(true);
    expect(fitsCaps(spans, FLORIDA, t + 30 * HOUR, t + 34 * HOUR)).toBe(false);
  });
});

describe("the caps' store (real Redis): the same arithmetic, atomically", () => {
  const { redis, keys } = useRedis();

  it("refuses the 4th call in 24 h whatever order the reservations arrive in (5 in 9 h were accepted)", async () => {
    const f = createCallFrequency(redis, keys(), { keepMs: 8 * 86_400_000 });
    const phone = "+13055550123";
    const t = Date.now() + 86_400_000;
    const order = [8, 7, 6, 0, 1].map((h) => t + h * HOUR);
    const answers = [];
    for (const [i, at] of order.entries())
      answers.push(await f.reserve(phone, `job:${i}:1:0`, at, 0, FLORIDA));
    expect(answers).toEqual(["ok", "ok", "ok", "cap", "cap"]);
  });

  it("a reservation counts for the span its campaign may dial in: one tomorrow morning is within 24 h of tonight's", async () => {
    const f = createCallFrequency(redis, keys(), { keepMs: 8 * 86_400_000 });
    const phone = "+13055550124";
    const t = Date.now() + 86_400_000;
    const cap = [{ calls: 1, perHours: 24 }];
    expect(await f.reserve(phone, "job:a:1:0", t, 0, cap, false, t + 12 * HOUR)).toBe("ok");
    // Its start is 30 h after the other's start, but only 18 h after the other's window closes.
    expect(await f.reserve(phone, "job:b:1:0", t + 30 * HOUR, 0, cap, false, t + 40 * HOUR)).toBe("cap");
    expect(await f.reserve(phone, "job:b:1:0", t + 36 * HOUR, 0, cap, false, t + 40 * HOUR)).toBe("ok");
    expect((await f.callTimes([phone], Date.now())).get(phone)).toEqual([
      [t, t + 12 * HOUR],
      [t + 36 * HOUR, t + 40 * HOUR],
    ]);
    // Released (its contact handed to another campaign): it counts no more.
    expect(await f.release(phone, "job:a:1:0")).toBe(1);
    expect(await f.reserve(phone, "job:c:1:0", t, 0, cap, false, t + 10 * HOUR)).toBe("ok");
  });

  it("Lua and TypeScript agree on random reservations", async () => {
    const f = createCallFrequency(redis, keys(), { keepMs: 8 * 86_400_000 });
    const next = createRandom(7);
    const base = Date.now() + 86_400_000;
    for (let n = 0; n < 20; n += 1) {
      const phone = `+1305555${String(1000 + n)}`;
      const kept: CallTime[] = [];
      for (let i = 0; i < 8; i += 1) {
        const at = base + Math.floor(next() * 72) * HOUR;
        const until = next() < 0.5 ? at : at + Math.floor(next() * 14) * HOUR;
        const caps = [{ calls: 2, perHours: 24 }];
        const expected = fitsCaps(kept, caps, at, until) ? "ok" : "cap";
        expect(await f.reserve(phone, `job:${n}:${i}:0`, at, 0, caps, false, until)).toBe(expected);
        if (expected === "ok") kept.push(until === at ? at : [at, until]);
      }
    }
  });
});
