import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { API_KEY } from "../support/fixtures.ts";
import { useSimulator } from "../support/simulator.ts";

// The schedule's arithmetic is test/simulator/rate-schedule.test.ts; this one waits for the limit
// to move in real time (about 3 s), so it is in the slow project.
describe("simulator with a rate-limit schedule", () => {
  const t = useSimulator();

  /** Sends `n` requests at once; `bound`: the most a bucket of `limit` may admit meanwhile. */
  async function send(n: number, limit = 0) {
    const started = Date.now();
    const responses = await Promise.all(
      Array.from({ length: n }, () =>
        fetch(`${t.sim.url}/segment/list`, { headers: { "x-api-key": API_KEY } }),
      ),
    );
    for (const r of responses) await r.body?.cancel();
    return {
      ok: responses.filter((r) => r.status === 200).length,
      limited: responses.filter((r) => r.status === 429 && r.headers.get("retry-after")).length,
      bound: limit + Math.ceil((limit * (Date.now() - started)) / 1000),
    };
  }
  const at = async (sec: number) =>
    sleep(Math.max(0, t.sim.rateLimitScheduleStartedAt + sec * 1000 - Date.now()));

  it("answers 429 above the limit in force and nothing below it, as the limit moves", async () => {
    t.sim.setFaults({
      rateLimitSchedule: [
        { atSec: 0, perSecond: 20 },
        { atSec: 2.5, perSecond: 5 },
      ],
    });
    try {
      // Above 20/s: a second's burst passes, the rest is refused.
      const burst = await send(30, 20);
      expect(burst.ok).toBeGreaterThanOrEqual(20);
      expect(burst.ok).toBeLessThanOrEqual(burst.bound);
      expect(burst.limited).toBe(30 - burst.ok);
      // Below 20/s from an empty bucket: about 14/s for 0.8 s, all answered.
      const from = (Date.now() - t.sim.rateLimitScheduleStartedAt) / 1000;
      for (let i = 1; i <= 12; i++) {
        await at(from + i * 0.07);
        expect(
          (await send(1)).ok,
          `request ${i} at ${(Date.now() - t.sim.rateLimitScheduleStartedAt) / 1000}s`,
        ).toBe(1);
      }
      // From second 2.5 the limit is 5/s: the bucket holds 5 at the most.
      await at(2.55);
      const after = await send(20, 5);
      expect(after.ok).toBeGreaterThanOrEqual(5);
      expect(after.ok).toBeLessThanOrEqual(after.bound);
      expect(after.limited).toBe(20 - after.ok);
    } finally {
      t.sim.setFaults({ rateLimitSchedule: [] });
    }
  });
});
