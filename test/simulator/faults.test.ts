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
