import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { DEFAULT_ADAPTIVE } from "../../src/limiter/rate-limit-options.ts";
import { createSharedRateLimiter } from "../../src/limiter/shared-rate-limiter.ts";
import { useRedis } from "../support/redis.ts";

describe("createSharedRateLimiter (real Redis)", () => {
  const { redis } = useRedis();
  const key = () => `vcw-test-limit-${randomBytes(4).toString("hex")}`;

  /** Admits `n` attempts from `limiters` in turn, all at once; returns how long it took. */
  async function admit(limiters: ReturnType<typeof createSharedRateLimiter>[], n: number): Promise<number> {
    const started = performance.now();
    await Promise.all(Array.from({ length: n }, (_, i) => limiters[i % limiters.length]!.acquire()));
    return performance.now() - started;
  }

  it("a fixed rate is shared: two limiters on one key together admit that rate, not twice it", async () => {
    const k = key();
    const a = createSharedRateLimiter({ redis, key: k, limit: { mode: "fixed", perSecond: 100 } });
    const b = createSharedRateLimiter({ redis, key: k, limit: { mode: "fixed", perSecond: 100 } });
    // 60 attempts at 100/s: the last is admitted about 590 ms after the first.
    const ms = await admit([a, b], 60);
    expect(ms).toBeGreaterThan(540);
    expect(ms).toBeLessThan(1_500);
  });

  it("adaptive: grows while demand exceeds the rate, cuts on 429, once per cooldown", async () => {
    const k = key();
    const limiter = createSharedRateLimiter({
      redis,
      key: k,
      limit: { ...DEFAULT_ADAPTIVE, initial: 50, cooldownMs: 10_000 },
    });
    // Eight callers asking without pause for half a second: demand well above 50/s.
    const until = performance.now() + 500;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (performance.now() < until) await limiter.acquire();
      }),
    );
    const grown = (await limiter.state()).rate!;
    expect(grown).toBeGreaterThan(55);
    // A burst of 429s from requests already sent: one decrease, not five.
    for (let i = 0; i < 5; i++) limiter.observe({ status: 429, timedOut: false, latencyMs: 5 });
    await new Promise((r) => setTimeout(r, 50));
    const state = await limiter.state();
    expect(state.cuts).toBe(1);
    expect(state.rate).toBeCloseTo(grown * DEFAULT_ADAPTIVE.decrease, 0);
  });

  it("adaptive: does not grow while demand is below the rate (idle time never inflates it)", async () => {
    const limiter = createSharedRateLimiter({
      redis,
      key: key(),
      limit: { ...DEFAULT_ADAPTIVE, initial: 100 },
    });
    for (let i = 0; i < 10; i++) {
      await limiter.acquire();
      await new Promise((r) => setTimeout(r, 30));
    }
    expect((await limiter.state()).rate).toBe(100);
  });

  it("adaptive: a timeout cuts the rate; a 5xx does not", async () => {
    const limiter = createSharedRateLimiter({
      redis,
      key: key(),
      limit: { ...DEFAULT_ADAPTIVE, initial: 100 },
    });
    await limiter.acquire();
    limiter.observe({ status: 503, timedOut: false, latencyMs: 5 });
    await new Promise((r) => setTimeout(r, 30));
    expect((await limiter.state()).cuts).toBe(0);
    limiter.observe({ status: undefined, timedOut: true, latencyMs: 10_000 });
    await new Promise((r) => setTimeout(r, 30));
    expect(await limiter.state()).toEqual({ rate: 85, cuts: 1 });
  });
});
