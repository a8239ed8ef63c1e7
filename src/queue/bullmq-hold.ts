import type { Job } from "bullmq";
import type { JobHold } from "../lib/job-hold.ts";
import type { RedisClient } from "../lib/redis.ts";
import { defineScript, luaFile } from "../lib/scripts.ts";

/** The lock's time left if it holds this token, else -3 (BullMQ's lock key: `<queue>:<id>:lock`). */
const lockLeft = defineScript<number>("job_lock_left", 1, luaFile(import.meta.url, "lua/job-lock-left.lua"));

/** Asked again this long before the lock's known end: a renewal may be late. */
const MARGIN_MS = 200;

/**
 * A BullMQ job's hold on its lock: lost once the worker's renewal failed (`signal`, aborted by
 * start-worker.ts), or when the lock holds another token or none (a pause past it: the renewal
 * has not run yet when the work resumes). Redis is asked only when the lock's last known end is
 * near, so a send pays a round trip about once per half lock, not each time.
 */
export function bullmqHold(
  job: Job,
  token: string,
  signal: AbortSignal | undefined,
  queue: { client: Promise<RedisClient>; toKey(type: string): string },
): JobHold {
  const key = `${queue.toKey(job.id ?? "")}:lock`;
  let knownUntil = 0;
  return {
    what: `job ${job.queueName}:${job.id}`,
    async held() {
      if (signal?.aborted) return false;
      if (performance.now() < knownUntil) return true;
      const asked = performance.now();
      const left = await lockLeft(await queue.client, [key], [token]);
      if (left < 0) return false;
      knownUntil = asked + left - MARGIN_MS;
      return true;
    },
  };
}
