import { createHash } from "node:crypto";
import { sendPerKey } from "../../lib/per-key.ts";
import type { RedisClient } from "../../lib/redis.ts";
import type { RedisKeys } from "../../lib/redis-keys.ts";
import { defineScript, LUA_NOW_MS, luaFile } from "../../lib/scripts.ts";

/** A call: an instant (epoch ms), or the span [start, end] of its campaign's window, where it may be dialled. */
export type CallTime = number | readonly [number, number];

/** A cap: at most `calls` in any `perHours`. */
export interface CapLimit {
  calls: number;
  perHours: number;
}

const WEEK_MS = 7 * 86_400_000;
/** Calls whose span ended more than the longest cap ago no longer count; kept a little longer. */
const KEEP_MS = WEEK_MS + 86_400_000;

/** Lua: the number's reservations as spans ({start, end}) and whether `digest` holds one. */

/**
 * Puts a number in a campaign when neither the cooldown (another campaign's start within ARGV[3]
 * ms, before or after) nor a cap (ARGV[8..]: pairs of calls, period ms) refuses, and records the
 * call, dialled at some instant of [ARGV[2], ARGV[7]], in both the history hash and the call-times
 * set, in one step per number. A campaign already holding it answers ok: a retried step counts
 * nothing twice (the member is the campaign key's digest, with the span's end).
 */
const reserveCapped = defineScript<string>(
  "calls_reserve_capped",
  2,
  luaFile(import.meta.url, "lua/calls-reserve-capped.lua", { LUA_NOW_MS, KEEP_MS }),
);

/** Takes a campaign's reservation of a number back (its contact was handed to another campaign). */
const releaseScript = defineScript<number>(
  "calls_release",
  1,
  luaFile(import.meta.url, "lua/calls-release.lua"),
);

/** A campaign key as a set member: 12 characters, the same for the same key. */
const memberOf = (campaign: string) => createHash("sha256").update(campaign).digest("base64url").slice(0, 12);

/** A stored member and its score as a call time: an instant, or the span it may be dialled in. */
function callTimeOf(member: string, start: number): { digest: string; time: CallTime } {
  const bar = member.lastIndexOf("|");
  if (bar < 0) return { digest: member, time: start };
  const end = Number(member.slice(bar + 1));
  return { digest: member.slice(0, bar), time: end === start ? start : [start, end] };
}

export type Reservation = "ok" | "recent" | "cap";

/**
 * Calls per number across all jobs and campaigns, for the frequency caps: a sorted set per number
 * (member: a digest of the campaign key and the end of the span its call may be dialled in, score:
 * the span's start), beside the call history hash (same hash tag), trimmed once a span ended two
 * weeks ago. A few dozen bytes a call, listpack-encoded.
 */
export function createCallFrequency(redis: RedisClient, keys: RedisKeys, o: { keepMs: number }) {
  /** The ZRANGEBYSCORE that reads a number's reservations. */
  const readCommand = (phone: string, now: number) =>
    ["zrangebyscore", keys.callTimes(phone), now - 2 * KEEP_MS, "+inf", "WITHSCORES"] as const;
  /** Several numbers' reservations, in their order: their reads sent together (lib/per-key.ts). */
  const readEach = async (phones: readonly string[], now: number) =>
    (
      await sendPerKey<string[]>(
        redis,
        phones.map((p) => readCommand(p, now)),
      )
    ).map((flat) => reservationsOf(flat, now));
  const reservationsOf = (flat: readonly string[], now: number) => {
    const out: { digest: string; time: CallTime }[] = [];
    for (let k = 0; k < flat.length; k += 2) {
      const c = callTimeOf(flat[k]!, Number(flat[k + 1]));
      const end = typeof c.time === "number" ? c.time : c.time[1];
      if (end >= now - KEEP_MS) out.push(c);
    }
    return out;
  };
  return {
    /** Each number's reservations still within a cap's reach (read only: the preview and the planner). */
    async callTimes(phones: readonly string[], now: number): Promise<Map<string, CallTime[]>> {
      const out = new Map<string, CallTime[]>();
      for (let i = 0; i < phones.length; i += 500) {
        const part = phones.slice(i, i + 500);
        const found = await readEach(part, now);
        part.forEach((phone, j) => {
          if (found[j]!.length > 0)
            out.set(
              phone,
              found[j]!.map((c) => c.time),
            );
        });
      }
      return out;
    },

    /** Each number's reservations but `campaign`'s own, in their order (mid-campaign: is it over a cap now?). */
    async othersOfEach(phones: readonly string[], campaign: string, now: number): Promise<CallTime[][]> {
      const own = memberOf(campaign);
      return (await readEach(phones, now)).map((found) =>
        found.filter((c) => c.digest !== own).map((c) => c.time),
      );
    },

    /**
     * Puts `phone` in `campaign`, to be dialled at some instant of [`at`, `until`] (default: at
     * `at`), unless the cooldown (another campaign within `withinMs`, before or after; skipped with
     * `force`: follow-ups, hand-backs) or a cap refuses; exactly once per campaign key.
     */
    async reserve(
      phone: string,
      campaign: string,
      at: number,
      withinMs: number,
      caps: readonly CapLimit[],
      force = false,
      until = at,
    ): Promise<Reservation> {
      const capArgs = caps.flatMap((c) => [c.calls, c.perHours * 3_600_000]);
      return (await reserveCapped(
        redis,
        [keys.calls(phone), keys.callTimes(phone)],
        [
          campaign,
          at,
          withinMs,
          force ? "force" : "",
          o.keepMs,
          memberOf(campaign),
          Math.max(until, at),
          ...capArgs,
        ],
      )) as Reservation;
    },

    /** Takes `campaign`'s reservation of `phone` back; the number of reservations removed. */
    release: (phone: string, campaign: string) =>
      releaseScript(redis, [keys.callTimes(phone)], [memberOf(campaign)]),
  };
}

export type CallFrequency = ReturnType<typeof createCallFrequency>;
