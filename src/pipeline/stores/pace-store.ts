import type { RedisClient } from "../../lib/redis.ts";
import type { RedisKeys } from "../../lib/redis-keys.ts";
import { defineScript } from "../../lib/scripts.ts";

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
  `
local field = 'c:' .. ARGV[1]
local ended, pending, version, now = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local prev = redis.call('HGET', KEYS[1], field)
if prev then
  local at0, pending0, version0 = string.match(prev, '^([^,]+),([^,]+),([^,]+)$')
  if version <= tonumber(version0) then return 0 end
  if tonumber(pending0) > 0 or ended > 0 then
    local gap = math.min(math.max(now - tonumber(at0), 0), ${MAX_GAP_MS})
    local decay = math.pow(0.5, gap / ${HALF_LIFE_MS})
    local e = tonumber(redis.call('HGET', KEYS[1], 'ended') or '0') * decay + ended
    local b = tonumber(redis.call('HGET', KEYS[1], 'busyMs') or '0') * decay + gap
    redis.call('HSET', KEYS[1], 'ended', tostring(e), 'busyMs', tostring(b))
  end
end
if pending > 0 then redis.call('HSET', KEYS[1], field, now .. ',' .. pending .. ',' .. version)
else redis.call('HDEL', KEYS[1], field) end
redis.call('PEXPIRE', KEYS[1], ARGV[6])
return 1
`,
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
