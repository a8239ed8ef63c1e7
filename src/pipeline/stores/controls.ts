import type { RedisClient } from "../../lib/redis.ts";
import type { RedisKeys } from "../../lib/redis-keys.ts";

/**
 * What the operator decides: a paused job sends no contact and creates no campaign (files are still
 * admitted and validated); a canceled campaign, not yet created, never is. The service has no
 * operation to pause or stop a campaign once it exists.
 */
export function createControls(redis: RedisClient, keys: RedisKeys) {
  return {
    pause: async (job: string) => (await redis.sadd(keys.paused, job)) === 1,
    resume: async (job: string) => (await redis.srem(keys.paused, job)) === 1,
    isPaused: async (job: string) => (await redis.sismember(keys.paused, job)) === 1,
    paused: async () => (await redis.smembers(keys.paused)).sort(),
    cancel: async (campaignKey: string) => (await redis.sadd(keys.canceled, campaignKey)) === 1,
    isCanceled: async (campaignKey: string) => (await redis.sismember(keys.canceled, campaignKey)) === 1,
  };
}

export type Controls = ReturnType<typeof createControls>;

/** An AbortSignal that fires once `job` is paused (looked at every `everyMs`), and its stop. */
export function abortWhenPaused(
  controls: Pick<Controls, "isPaused">,
  job: string,
  everyMs = 1_000,
): { signal: AbortSignal; stop: () => void } {
  const paused = new AbortController();
  const timer = setInterval(() => {
    controls.isPaused(job).then(
      (yes) => {
        if (yes) paused.abort(new Error(`job ${job} is paused`));
      },
      () => undefined,
    );
  }, everyMs);
  timer.unref();
  return { signal: paused.signal, stop: () => clearInterval(timer) };
}
