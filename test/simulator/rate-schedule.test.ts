import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import {
  allowedBetween,
  averageLimit,
  checkRateSchedule,
  limitAt,
  parseRateSchedule,
} from "../../src/simulator/rate-schedule.ts";
import { API_KEY } from "../support/fixtures.ts";
import { useSimulator } from "../support/simulator.ts";

const HALVED = [
  { atSec: 0, perSecond: 200 },
  { atSec: 30, perSecond: 100 },
  { atSec: 60, perSecond: 200 },
];

describe("rate-limit schedule", () => {
  it("reads seconds:requests per second, comma-separated", () => {
    expect(parseRateSchedule("0:200,30:100,60:200")).toEqual(HALVED);
    expect(parseRateSchedule(" 0:0.5 , 1.5:20 ")).toEqual([
      { atSec: 0, perSecond: 0.5 },
      { atSec: 1.5, perSecond: 20 },
    ]);
  });

  it.each([
    ["", 'entry 1 "": expected SECONDS:PER_SECOND'],
    ["0:200,30", 'entry 2 "30": expected SECONDS:PER_SECOND'],
    ["0:200,30:100:5", 'entry 2 "30:100:5": expected SECONDS:PER_SECOND'],
    ["10:200", 'entry 1 "10:200": the first entry must be at second 0'],
    ["0:200,30:x", 'entry 2 "30:x": requests per second must be a number > 0'],
    ["0:200,30:0", 'entry 2 "30:0": requests per second must be a number > 0'],
    ["0:200,30:-5", 'entry 2 "30:-5": requests per second must be a number > 0'],
    ["0:200,30:100,30:50", 'entry 3 "30:50": seconds must increase from entry to entry'],
    ["0:200,:100", 'entry 2 ":100": seconds must be a number >= 0'],
  ])("refuses %j naming the bad entry", (text, message) => {
    expect(() => parseRateSchedule(text)).toThrow(`rate-limit schedule ${message}`);
  });

  it("checks a schedule given as data the same way", () => {
    expect(checkRateSchedule(HALVED)).toBe(HALVED);
    expect(() => checkRateSchedule([])).toThrow("at least one entry");
    expect(() => checkRateSchedule([{ atSec: 0, perSecond: Number.NaN }])).toThrow(
      'entry 1 "0:NaN": requests per second must be a number > 0',
    );
  });

  it("the limit in force: each step from its second, the last for good", () => {
    expect([-1, 0, 29.9, 30, 59, 60, 1e6].map((s) => limitAt(HALVED, s))).toEqual([
      200, 200, 200, 100, 100, 200, 200,
    ]);
  });

  it("averages the limit over an interval", () => {
    expect(allowedBetween(HALVED, 0, 90)).toBe(30 * 200 + 30 * 100 + 30 * 200);
    expect(averageLimit(HALVED, 0, 90)).toBeCloseTo(500 / 3, 9);
    expect(averageLimit(HALVED, 20, 40)).toBe(150);
    expect(averageLimit(HALVED, 30, 60)).toBe(100);
    expect(averageLimit(HALVED, 45, 75)).toBe(150);
    expect(averageLimit(HALVED, 100, 200)).toBe(200);
    expect(averageLimit(HALVED, 30, 30)).toBe(100);
    expect(allowedBetween(HALVED, 40, 10)).toBe(0);
    expect(() => averageLimit(HALVED, 40, 10)).toThrow(RangeError);
  });
});

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
