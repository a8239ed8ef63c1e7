import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { describe, expect, inject, it, vi } from "vitest";
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

  /** A connection of its own whose script calls (round trips of the limiter) are counted: EVALSHA (an EVAL follows only a first NOSCRIPT). */
  function counted() {
    const conn = new Redis(inject("redisUrl"), { maxRetriesPerRequest: null });
    const send = vi.spyOn(conn, "sendCommand");
    const calls = () => send.mock.calls.filter(([c]) => String(c.name).toLowerCase() === "evalsha").length;
    return { conn, calls };
  }

  it("attempts waiting at once are granted in one round trip, each its own slot at the rate", async () => {
    const { conn, calls } = counted();
    try {
      const limiter = createSharedRateLimiter({
        redis: conn,
        key: key(),
        limit: { mode: "fixed", perSecond: 100 },
      });
      const started = performance.now();
      const admitted: number[] = [];
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          await limiter.acquire();
          admitted.push(performance.now() - started);
        }),
      );
      // The first asks alone; the 15 queued behind its round trip are granted together.
      expect(calls()).toBeLessThanOrEqual(2);
      admitted.sort((a, b) => a - b);
      // Slot 16 of 100/s is 150 ms after the first: none leaves sooner than its own.
      expect(admitted[15]! - admitted[0]!).toBeGreaterThan(140);
    } finally {
      conn.disconnect();
    }
  });

  it("attempts arriving while the schedule is booked ahead share round trips; two workers together stay at the rate", async () => {
    const a = counted();
    const b = counted();
    try {
      const k = key();
      const limiters = [a, b].map(({ conn }) =>
        createSharedRateLimiter({ redis: conn, key: k, limit: { mode: "fixed", perSecond: 100 } }),
      );
      const admitted: number[] = [];
      const until = performance.now() + 800;
      // Eight callers per worker, each asking again as soon as it is admitted (a request's worth later).
      await Promise.all(
        Array.from({ length: 16 }, async (_, i) => {
          while (performance.now() < until) {
            await limiters[i % 2]!.acquire();
            admitted.push(performance.now());
            await new Promise((r) => setTimeout(r, 5));
          }
        }),
      );
      admitted.sort((x, y) => x - y);
      // Never faster than 100/s: any 41 admissions span 400 ms; 300, as a stall of the loaded event loop
      // notes the admissions due in it late (not the one 40 slots on) and shortens that span by its
      // length, while 200/s (twice the rate) spans 200 ms and slots taken at once far less.
      for (let i = 0; i + 40 < admitted.length; i++)
        expect(admitted[i + 40]! - admitted[i]!).toBeGreaterThan(300);
      expect(admitted.length).toBeGreaterThan(70);
      // Today's one round trip per attempt is several attempts per round trip now.
      expect(a.calls() + b.calls()).toBeLessThan(admitted.length / 3);
    } finally {
      a.conn.disconnect();
      b.conn.disconnect();
    }
  });

  it("an attempt aborted while it waits to be granted leaves the queue with the sleep's AbortError", async () => {
    const limiter = createSharedRateLimiter({ redis, key: key(), limit: { mode: "fixed", perSecond: 10 } });
    // Books the schedule 300 ms ahead: the next attempt waits in the queue.
    await Promise.all([limiter.acquire(), limiter.acquire(), limiter.acquire(), limiter.acquire()]);
    const abort = new AbortController();
    const waiting = limiter.acquire(abort.signal);
    abort.abort();
    await expect(waiting).rejects.toMatchObject({ name: "AbortError" });
    // The next attempt is still granted.
    await limiter.acquire();
  });
});
