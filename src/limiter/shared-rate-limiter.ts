import { setTimeout as sleep } from "node:timers/promises";
import type { AttemptOutcome, RequestGate } from "../api/gate.ts";
import type { RedisClient } from "../lib/redis.ts";
import { defineScript, luaFile } from "../lib/scripts.ts";
import { LatencyWatch } from "./latency-watch.ts";
import type { RateLimitOptions } from "./rate-limit-options.ts";

// Each attempt reserves the next free slot (a virtual schedule, `tat`) at the shared rate, on Redis'
// clock so workers on different machines agree. In adaptive mode the rate grows only while demand
// exceeds it (a backlog of reserved slots), so idle time never inflates it.
const acquire = defineScript<string>(
  "limiter_acquire",
  1,
  luaFile(import.meta.url, "lua/limiter-acquire.lua"),
);

const decrease = defineScript<number>(
  "limiter_decrease",
  1,
  luaFile(import.meta.url, "lua/limiter-decrease.lua"),
);

export interface SharedRateLimiter extends RequestGate {
  /** The shared rate now, requests per second, and how many decreases so far. */
  state(): Promise<{ rate: number | undefined; cuts: number }>;
}

export interface SharedRateLimiterOptions {
  redis: RedisClient;
  /** Redis key of the shared state; one per service. */
  key: string;
  limit: RateLimitOptions;
  /** Errors reaching Redis from `observe`, which cannot throw into the request. */
  onError?: (error: unknown) => void;
}

/** A rate limit shared by every worker through Redis: fixed, or adaptive (AIMD). */
export function createSharedRateLimiter(o: SharedRateLimiterOptions): SharedRateLimiter {
  const { redis, key, limit } = o;
  const adaptive = limit.mode === "adaptive" ? limit : undefined;
  const latency = new LatencyWatch(adaptive?.latencyFactor ?? 0);
  const args =
    limit.mode === "fixed"
      ? ["fixed", limit.perSecond, limit.perSecond, limit.perSecond, 0]
      : ["adaptive", limit.initial, limit.min, limit.max, limit.increase];

  const cut = () => {
    if (!adaptive) return;
    decrease(redis, [key], [adaptive.decrease, adaptive.min, adaptive.cooldownMs]).catch((error: unknown) =>
      o.onError?.(error),
    );
  };

  return {
    async acquire(signal) {
      const wait = Number(await acquire(redis, [key], args));
      if (wait >= 1) await sleep(wait, undefined, { signal });
    },
    observe({ status, timedOut, latencyMs }: AttemptOutcome) {
      if (!adaptive) return;
      if (status === 429 || timedOut) return cut();
      if (status !== undefined && status < 500 && latency.add(latencyMs)) cut();
    },
    async state() {
      const [rate, cuts] = await redis.hmget(key, "rate", "cuts");
      return { rate: rate === null ? undefined : Number(rate), cuts: Number(cuts ?? 0) };
    },
  };
}

/** The shared rate (req/s) the limiter keeps at `key`, or null before its first request. */
export async function readSharedRate(redis: RedisClient, key: string): Promise<number | null> {
  const rate = await redis.hget(key, "rate");
  return rate === null ? null : Number(rate);
}
