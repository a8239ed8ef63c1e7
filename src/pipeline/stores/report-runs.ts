import type { RedisClient } from "../../lib/redis.ts";
import type { RedisKeys } from "../../lib/redis-keys.ts";
import { defineScript, luaFile } from "../../lib/scripts.ts";

const advance = defineScript<number>("report_advance", 1, luaFile(import.meta.url, "lua/report-advance.lua"));

/** A report's last-run mark outlives a long stop (a yearly report still knows its last tick). */
const KEEP_MARK_MS = 400 * 86_400_000;

/**
 * Each scheduled report's last-run mark (`reports[]` entry `report` of `job`): the tick it last
 * sent, so a start catches up the ticks missed since.
 */
export function createReportRuns(redis: RedisClient, keys: RedisKeys) {
  const mark = keys.reportLastRun;
  return {
    /** The last tick sent; null when the report has no mark yet. */
    async last(job: string, report: number): Promise<number | null> {
      const value = await redis.get(mark(job, report));
      return value === null ? null : Number(value);
    },
    /** Marks `at` when the report has no mark yet (a first start); true when it set it. */
    async start(job: string, report: number, at: number): Promise<boolean> {
      return (await redis.set(mark(job, report), String(at), "PX", KEEP_MARK_MS, "NX")) === "OK";
    },
    /** Moves the mark forward to `tick`; never back (a late replica). */
    async advance(job: string, report: number, tick: number): Promise<void> {
      await advance(redis, [mark(job, report)], [tick, KEEP_MARK_MS]);
    },
  };
}

export type ReportRuns = ReturnType<typeof createReportRuns>;
