import { describe, expect, it } from "vitest";
import { createFaults, NO_FAULTS } from "../../src/simulator/faults.ts";
import { createRandom } from "../../src/simulator/prng.ts";

const faults = (over: Partial<typeof NO_FAULTS>) => createFaults({ ...NO_FAULTS, ...over }, createRandom(1));

describe("faults", () => {
  it("admits everything when off", () => {
    const f = faults({});
    for (let i = 0; i < 1000; i++) expect(f.admit(0)).toBeUndefined();
    expect(f.injectedError()).toBeUndefined();
    expect(f.commitThenFail()).toBeUndefined();
    expect(f.delayMs()).toBe(0);
  });

  it("rate limit: a bucket of one second, refilled continuously, 429 with a Retry-After", () => {
    const f = faults({ rateLimit: 10 });
    for (let i = 0; i < 10; i++) {
      expect(f.admit(1000)).toBeUndefined();
      f.release();
    }
    expect(f.admit(1000)).toEqual({
      status: 429,
      message: "rate limit of 10 requests per second exceeded",
      retryAfterSec: 1,
    });
    expect(f.admit(1100)).toBeUndefined();
    expect(f.admit(1100)).toMatchObject({ status: 429 });
  });

  it("rate-limit schedule: the bucket refills at the limit in force and holds one second of it", () => {
    const schedule = [
      { atSec: 0, perSecond: 10 },
      { atSec: 2, perSecond: 2 },
      { atSec: 4, perSecond: 10 },
    ];
    const f = createFaults({ ...NO_FAULTS, rateLimitSchedule: schedule }, createRandom(1), 50_000);
    const admitted = (atMs: number, n: number) => {
      let ok = 0;
      for (let i = 0; i < n; i++) if (f.admit(50_000 + atMs) === undefined) ok++;
      return ok;
    };
    expect(admitted(0, 15)).toBe(10);
    expect(admitted(1_000, 15)).toBe(10);
    // 1.5 s to 2 s at 10/s, then 2/s: the bucket is cut to 2.
    expect(admitted(2_500, 15)).toBe(2);
    expect(f.admit(52_500)).toEqual({
      status: 429,
      message: "rate limit of 2 requests per second exceeded",
      retryAfterSec: 1,
    });
    expect(admitted(3_500, 15)).toBe(2);
    // 3.5 s to 4 s at 2/s and 4 s to 4.2 s at 10/s: 1 + 2.
    expect(admitted(4_200, 15)).toBe(3);
    expect(admitted(60_000, 15)).toBe(10);
    expect(f.scheduleStartedAt).toBe(50_000);
  });

  it("a rate limit is fixed or scheduled, not both", () => {
    expect(() => faults({ rateLimit: 5, rateLimitSchedule: [{ atSec: 0, perSecond: 5 }] })).toThrow(
      "set rateLimit or rateLimitSchedule, not both",
    );
    expect(() => faults({ rateLimitSchedule: [{ atSec: 3, perSecond: 5 }] })).toThrow(
      "the first entry must be at second 0",
    );
  });

  it("in-flight cap counts requests until released", () => {
    const f = faults({ maxInflight: 2 });
    expect(f.admit(0)).toBeUndefined();
    expect(f.admit(0)).toBeUndefined();
    expect(f.admit(0)).toMatchObject({ status: 429, message: "too many requests in flight (limit 2)" });
    f.release();
    expect(f.admit(0)).toBeUndefined();
  });

  it("error and commit-then-fail rates are shares of requests", () => {
    const f = faults({ errorRate: 0.2, commitThenFailRate: 0.1, commitThenFailMode: "drop" });
    let errors = 0;
    let drops = 0;
    for (let i = 0; i < 10_000; i++) {
      if (f.injectedError()) errors++;
      if (f.commitThenFail() === "drop") drops++;
    }
    expect(errors / 10_000).toBeCloseTo(0.2, 1);
    expect(drops / 10_000).toBeCloseTo(0.1, 1);
  });

  it("latency with jitter stays within its bounds", () => {
    const f = faults({ latencyMs: 25, jitterMs: 10 });
    for (let i = 0; i < 100; i++) {
      const d = f.delayMs();
      expect(d).toBeGreaterThanOrEqual(25);
      expect(d).toBeLessThan(35);
    }
  });
});
