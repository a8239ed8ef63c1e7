import type { RedisClient } from "../../lib/redis.ts";
import type { RedisKeys } from "../../lib/redis-keys.ts";
import { defineScript, luaFile } from "../../lib/scripts.ts";

/** A number's calls per UTC day and hour; absent: not limited (still counted). */
export interface NumberBudget {
  perDay?: number | undefined;
  perHour?: number | undefined;
}

/** Buckets outlive their day by two, for the status and retried grants. */
const KEEP_SECONDS = 3 * 86_400;

/**
 * Grants up to ARGV[2] calls on a number in its day (KEYS[1]) and hour (KEYS[2]) buckets, as many
 * as both budgets (ARGV[3], ARGV[4]; -1: none) have left, in one step; a grant is kept by its field
 * (ARGV[1]) so a retried step is given the same and counts nothing twice.
 */
const grantScript = defineScript<number>(
  "dialer_budget_grant",
  2,
  luaFile(import.meta.url, "lua/dialer-budget-grant.lua", { KEEP_SECONDS }),
);

/** "2026-11-29" and "2026-11-29T14": the UTC day and hour of `at`. */
export function budgetBuckets(at: number): { day: string; hour: string } {
  const iso = new Date(at).toISOString();
  return { day: iso.slice(0, 10), hour: iso.slice(0, 13) };
}

/**
 * Calls per dialer number, per UTC day and hour, shared by every job and worker: a grant is atomic,
 * never over a budget, and the same on a retry.
 */
export function createDialerBudgets(redis: RedisClient, keys: RedisKeys) {
  return {
    /** Up to `n` calls on `number` in the day and hour of `at`: how many the budgets allow (0..n). */
    async grant(number: string, field: string, n: number, at: number, budget: NumberBudget): Promise<number> {
      const { day, hour } = budgetBuckets(at);
      return grantScript(
        redis,
        [keys.dialerBudget(number, day), keys.dialerBudget(number, hour)],
        [field, n, budget.perDay ?? -1, budget.perHour ?? -1],
      );
    },
    /** Calls granted on `number` in the day and hour of `at`. */
    async used(number: string, at: number): Promise<{ day: number; hour: number }> {
      const { day, hour } = budgetBuckets(at);
      const [d, h] = await Promise.all([
        redis.hget(keys.dialerBudget(number, day), "used"),
        redis.hget(keys.dialerBudget(number, hour), "used"),
      ]);
      return { day: Number(d ?? 0), hour: Number(h ?? 0) };
    },
  };
}

export type DialerBudgets = ReturnType<typeof createDialerBudgets>;
