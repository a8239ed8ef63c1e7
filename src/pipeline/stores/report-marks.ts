import type { RedisClient } from "../../lib/redis.ts";
import type { RedisKeys } from "../../lib/redis-keys.ts";

/** What reports and progress deliveries mark on a campaign: the last version sent as progress. */
export function createReportMarks(redis: RedisClient, keys: RedisKeys) {
  const { meta } = keys.campaign;
  return {
    /** Records that `version` was sent as progress; false when it (or a later one) already was. */
    async markSent(id: string, version: number): Promise<boolean> {
      const previous = Number(await redis.hget(meta(id), "sentVersion"));
      if (previous >= version) return false;
      await redis.hset(meta(id), "sentVersion", String(version));
      return true;
    },
  };
}

export type ReportMarks = ReturnType<typeof createReportMarks>;
