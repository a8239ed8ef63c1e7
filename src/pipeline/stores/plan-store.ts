import type { RedisClient } from "../../lib/redis.ts";
import type { RedisKeys } from "../../lib/redis-keys.ts";

/** A retry comes within hours; the plan outlives that by far, then goes. */
const KEEP_MS = 2 * 86_400_000;

/** The calling plans of imported files, each made once (calling/plan-campaigns.ts makes them). */
export function createPlanStore(redis: RedisClient, keys: RedisKeys) {
  return {
    /**
     * The plan of one imported file, made once: the first attempt stores it (SET NX), a retry or a
     * second worker reads the same. Re-planning later would see the file's own reservations as calls,
     * a new pace or a new hour, and name other campaigns: a duplicate.
     */
    async once<T>(file: string, make: () => Promise<T>): Promise<T> {
      const key = keys.callingPlan(file);
      const stored = await redis.get(key);
      if (stored) return JSON.parse(stored) as T;
      const plan = await make();
      const set = await redis.set(key, JSON.stringify(plan), "PX", KEEP_MS, "NX");
      if (set === "OK") return plan;
      const won = await redis.get(key);
      return won ? (JSON.parse(won) as T) : plan;
    },
  };
}

export type PlanStore = ReturnType<typeof createPlanStore>;
