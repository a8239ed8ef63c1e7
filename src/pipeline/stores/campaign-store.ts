import type { RedisClient } from "../../lib/redis.ts";
import type { RedisKeys } from "../../lib/redis-keys.ts";
import { createCampaignRegistry } from "./campaign-registry.ts";
import { createCampaignResults } from "./campaign-results.ts";
import { createReportMarks } from "./report-marks.ts";

export type { CampaignRegistry, DueClaim, PollLag, StoredCampaign } from "./campaign-registry.ts";
export type { CampaignResults, PollCommit, PollCommitPart, Transition } from "./campaign-results.ts";
export type { ReportMarks } from "./report-marks.ts";

/**
 * The campaign store, whole: its registry and schedule, its results, its report marks, each its own
 * store over the same keys. Code that uses one part takes that part's type.
 */
export function createCampaignStore(redis: RedisClient, keys: RedisKeys, o: { retentionMs?: number } = {}) {
  const registry = createCampaignRegistry(redis, keys, o);
  return {
    ...registry,
    ...createCampaignResults(redis, keys, registry),
    ...createReportMarks(redis, keys),
  };
}

export type CampaignStore = ReturnType<typeof createCampaignStore>;
