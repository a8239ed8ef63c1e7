import type { RedisClient } from "../../lib/redis.ts";
import type { RedisKeys } from "../../lib/redis-keys.ts";
import { defineScript, luaFile } from "../../lib/scripts.ts";

/** Older observations fade: half their weight every 6 hours. */
const HALF_LIFE_MS = 6 * 3_600_000;
/** A gap between two polls longer than this counts as this much (a daemon down is not a slow dialer). */
const MAX_GAP_MS = 10 * 60_000;
/** Below this much observed calling time, the default pace stands. */
const MIN_BUSY_MS = 5 * 60_000;

/**
 * One poll of one campaign on a dialer's hash: the calls that ended since its last poll over the
 * time between them, counted only while it had calls under way or waiting, decayed, once per poll
 * version (a retried commit adds nothing).
 */
const observe = defineScript<number>(
  "pace_observe",
  1,
  luaFile(import.meta.url, "lua/pace-observe.lua", { MAX_GAP_MS, HALF_LIFE_MS }),
);

export interface PaceObservation {
  campaignId: string;
  /** Calls that became final in this poll. */
  ended: number;
  /** Calls not final after it. */
  pending: number;
  /** The poll's version: each counted once. */
  version: number;
  now: number;
}

/** The pace of each dialer (calls ending per minute per campaign), learned from polls. Small: a hash per dialer. */
export function createPaceStore(redis: RedisClient, keys: RedisKeys, o: { keepMs?: number } = {}) {
  const keepMs = o.keepMs ?? 30 * 86_400_000;
  return {
    async observe(dialer: string, p: PaceObservation): Promise<void> {
      await observe(redis, [keys.pace(dialer)], [p.campaignId, p.ended, p.pending, p.version, p.now, keepMs]);
    },
    /** Calls ending per minute, or undefined until enough calling time was seen. */
    async pace(dialer: string): Promise<number | undefined> {
      const [ended, busyMs] = await redis.hmget(keys.pace(dialer), "ended", "busyMs");
      const busy = Number(busyMs ?? 0);
      if (!(busy >= MIN_BUSY_MS)) return undefined;
      return Number(ended ?? 0) / (busy / 60_000);
    },
  };
}

export type PaceStore = ReturnType<typeof createPaceStore>;
