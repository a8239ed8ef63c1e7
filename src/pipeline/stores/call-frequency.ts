import { createHash } from "node:crypto";
import type { RedisClient } from "../../lib/redis.ts";
import type { RedisKeys } from "../../lib/redis-keys.ts";
import { defineScript } from "../../lib/scripts.ts";

const WEEK_MS = 7 * 86_400_000;
/** Calls older than the longest cap are dropped; the set lives a little longer than that. */
const KEEP_MS = WEEK_MS + 86_400_000;

/**
 * Puts a number in a campaign when neither the cooldown (another campaign within ARGV[3] ms) nor a
 * cap (ARGV[7..]: pairs of calls, period ms) refuses, and records the call in both the history
 * hash and the call-times set, in one step per number. A campaign already holding it answers ok:
 * a retried step counts nothing twice (the member is the campaign key's digest).
 */
const reserveCapped = defineScript<string>(
  "calls_reserve_capped",
  2,
  `
if redis.call('HGET', KEYS[1], 'campaign') == ARGV[1] or redis.call('ZSCORE', KEYS[2], ARGV[6]) then return 'ok' end
local at = tonumber(ARGV[2])
local last = tonumber(redis.call('HGET', KEYS[1], 'lastAt'))
if ARGV[4] ~= 'force' and last and at - last < tonumber(ARGV[3]) then return 'recent' end
for i = 7, #ARGV, 2 do
  local n = redis.call('ZCOUNT', KEYS[2], '(' .. (at - tonumber(ARGV[i + 1])), at)
  if n >= tonumber(ARGV[i]) then return 'cap' end
end
redis.call('HSET', KEYS[1], 'lastAt', ARGV[2], 'campaign', ARGV[1])
redis.call('HINCRBY', KEYS[1], 'attempts', 1)
redis.call('PEXPIRE', KEYS[1], ARGV[5])
redis.call('ZADD', KEYS[2], at, ARGV[6])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', '(' .. (at - ${KEEP_MS}))
redis.call('PEXPIRE', KEYS[2], ${KEEP_MS})
return 'ok'
`,
);

/** A campaign key as a set member: 12 characters, the same for the same key. */
const memberOf = (campaign: string) => createHash("sha256").update(campaign).digest("base64url").slice(0, 12);

export type Reservation = "ok" | "recent" | "cap";

/**
 * Calls per number across all jobs and campaigns, for the frequency caps: a sorted set per number
 * (member: a digest of the campaign key, score: its planned time), beside the call history hash
 * (same hash tag), trimmed to the last 8 days. A few dozen bytes a call, listpack-encoded.
 */
export function createCallFrequency(redis: RedisClient, keys: RedisKeys, o: { keepMs: number }) {
  return {
    /** Each number's call times in the last 8 days (read only: the preview and the planner). */
    async callTimes(phones: readonly string[], now: number): Promise<Map<string, number[]>> {
      const out = new Map<string, number[]>();
      for (let i = 0; i < phones.length; i += 500) {
        const part = phones.slice(i, i + 500);
        const read = await Promise.all(
          part.map((p) => redis.zrangebyscore(keys.callTimes(p), now - KEEP_MS, "+inf", "WITHSCORES")),
        );
        part.forEach((phone, j) => {
          const flat = read[j]!;
          const times: number[] = [];
          for (let k = 1; k < flat.length; k += 2) times.push(Number(flat[k]));
          if (times.length > 0) out.set(phone, times);
        });
      }
      return out;
    },

    /**
     * Puts `phone` in `campaign` planned at `at` unless the cooldown (`withinMs`, skipped with
     * `force`: follow-ups) or a cap refuses; exactly once per campaign key.
     */
    async reserve(
      phone: string,
      campaign: string,
      at: number,
      withinMs: number,
      caps: readonly { calls: number; perHours: number }[],
      force = false,
    ): Promise<Reservation> {
      const capArgs = caps.flatMap((c) => [c.calls, c.perHours * 3_600_000]);
      return (await reserveCapped(
        redis,
        [keys.calls(phone), keys.callTimes(phone)],
        [campaign, at, withinMs, force ? "force" : "", o.keepMs, memberOf(campaign), ...capArgs],
      )) as Reservation;
    },
  };
}

export type CallFrequency = ReturnType<typeof createCallFrequency>;
