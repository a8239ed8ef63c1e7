import { setTimeout as sleep } from "node:timers/promises";
import type { AttemptOutcome, RequestGate } from "../api/gate.ts";
import type { Signal } from "../api/web-types.ts";
import type { RedisClient } from "../lib/redis.ts";
import { defineScript, luaFile } from "../lib/scripts.ts";
import { LatencyWatch } from "./latency-watch.ts";
import type { RateLimitOptions } from "./rate-limit-options.ts";

// Each attempt reserves the next free slot (a virtual schedule, `tat`) at the shared rate, on Redis'
// clock so workers on different machines agree. In adaptive mode the rate grows only while demand
// exceeds it (a backlog of reserved slots), so idle time never inflates it. ARGV[6] slots are
// reserved at once, one after another: the wait for the first and the spacing come back (ms).
const acquire = defineScript<[string, string]>(
  "limiter_acquire_many",
  1,
  luaFile(import.meta.url, "lua/limiter-acquire.lua"),
);

/**
 * While slots this limiter was granted are still ahead, an attempt asks only this long before the
 * last of them: the shared schedule is booked past then by this limiter's own grant, so asking later
 * gets the same slot, and every attempt arriving meanwhile is granted in the same round trip.
 */
export const ASK_BEFORE_MS = 10;

/** Slots granted in one round trip at most. */
export const GRANT_AT_MOST = 64;

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

  const grants = slotGrants((n) => acquire(redis, [key], [...args, n]));
  return {
    async acquire(signal) {
      const at = await grants.next(signal);
      // Its slot's time, or at once (an abort while queued: the same AbortError as the sleep's).
      const wait = at - performance.now();
      if (wait >= 1 || signal?.aborted) await sleep(Math.max(0, wait), undefined, { signal });
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

/**
 * Slots of the shared schedule for the attempts waiting, several per round trip (decision 0076):
 * the attempts queued while a round trip is out, or while this process' last granted slot is more
 * than ASK_BEFORE_MS ahead, are granted together, each its own slot (the script books them one
 * after another at the shared rate), so no attempt leaves before its slot: never faster than the
 * rate, across workers. `next` resolves with the slot's time (performance.now() clock).
 */
function slotGrants(ask: (n: number) => Promise<[string, string]>) {
  type Waiter = { resolve(at: number): void; reject(error: unknown): void };
  const queue: Waiter[] = [];
  let asking = false;
  let timer: NodeJS.Timeout | undefined;
  // The local time of the last slot granted to this process: the schedule is booked past it.
  let bookedUntil = 0;

  const pump = () => {
    if (asking || timer || queue.length === 0) return;
    const later = bookedUntil - ASK_BEFORE_MS - performance.now();
    if (later > 0) {
      timer = setTimeout(() => {
        timer = undefined;
        pump();
      }, later);
      return;
    }
    const batch = queue.splice(0, GRANT_AT_MOST);
    asking = true;
    ask(batch.length)
      .then(
        ([first, every]) => {
          const at = performance.now() + Number(first);
          const spacing = Number(every);
          bookedUntil = at + (batch.length - 1) * spacing;
          for (const [i, w] of batch.entries()) w.resolve(at + i * spacing);
        },
        (error: unknown) => {
          for (const w of batch) w.reject(error);
        },
      )
      .finally(() => {
        asking = false;
        pump();
      });
  };

  return {
    next(signal?: Signal): Promise<number> {
      return new Promise<number>((resolve, reject) => {
        if (signal?.aborted) return resolve(0);
        const onAbort = () => {
          const i = queue.indexOf(waiter);
          if (i >= 0) queue.splice(i, 1);
          resolve(0);
        };
        const done = () => signal?.removeEventListener("abort", onAbort);
        const waiter: Waiter = {
          resolve: (at) => {
            done();
            resolve(at);
          },
          reject: (error) => {
            done();
            reject(error);
          },
        };
        signal?.addEventListener("abort", onAbort, { once: true });
        queue.push(waiter);
        pump();
      });
    },
  };
}

/** The shared rate (req/s) the limiter keeps at `key`, or null before its first request. */
export async function readSharedRate(redis: RedisClient, key: string): Promise<number | null> {
  const rate = await redis.hget(key, "rate");
  return rate === null ? null : Number(rate);
}
