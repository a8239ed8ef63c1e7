import { sendPerKey, sendPerKeyGroups } from "../../lib/per-key.ts";
import type { RedisClient } from "../../lib/redis.ts";
import type { RedisKeys } from "../../lib/redis-keys.ts";

/** What vcw knows of one number's calls, across all jobs. */
export interface CallRecord {
  /** When it was last put in a campaign: that campaign's planned start (epoch ms). */
  lastAt: number;
  /** The campaign: its key until the service gave it an id, then its id. */
  campaign: string;
  /** Campaigns it was put in. */
  attempts: number;
  /** The last final status a poll read, and when. */
  outcome?: string;
  outcomeAt?: number;
}

export interface CallHistoryOptions {
  /** How long a number's history is kept after its last call: at least the longest cooldown. */
  keepMs: number;
}

/** Per-number call history in Redis (a small hash per number, its own hash tag). */
export function createCallHistory(redis: RedisClient, keys: RedisKeys, o: CallHistoryOptions) {
  async function lastCalls(phones: readonly string[], exceptPrefix?: string): Promise<Map<string, number>> {
    const found = await sendPerKey<(string | null)[]>(
      redis,
      phones.map((p) => ["hmget", keys.calls(p), "lastAt", "campaign"]),
    );
    const out = new Map<string, number>();
    phones.forEach((phone, i) => {
      const [lastAt, campaign] = found[i]!;
      if (lastAt && !(exceptPrefix && campaign?.startsWith(exceptPrefix))) out.set(phone, Number(lastAt));
    });
    return out;
  }
  return {
    /**
     * When each of `phones` was last put in a campaign (that campaign's planned start), by another
     * campaign than those whose key starts with `exceptPrefix` (a file's own).
     */
    lastCalls,

    /**
     * Which of `phones` another campaign than those whose key starts with `exceptPrefix` (a file's
     * own) has within `withinMs` of `now`, before or after it (a call planned later counts too).
     */
    async recentlyCalled(
      phones: readonly string[],
      withinMs: number,
      now: number,
      exceptPrefix?: string,
    ): Promise<Set<string>> {
      if (withinMs <= 0) return new Set();
      const last = await lastCalls(phones, exceptPrefix);
      return new Set(phones.filter((p) => last.has(p) && Math.abs(now - last.get(p)!) < withinMs));
    },

    /**
     * A poll read a final status for each of `ended` in campaign `campaignId`: each number's HSET
     * and PEXPIRE, in that order, every number's sent together (lib/per-key.ts).
     */
    async recordOutcomes(
      ended: readonly { phone: string; status: string }[],
      campaignId: string,
      at: number,
    ): Promise<void> {
      await sendPerKeyGroups(
        redis,
        ended.map(({ phone, status }) => [
          ["hset", keys.calls(phone), "campaign", campaignId, "outcome", status, "outcomeAt", String(at)],
          ["pexpire", keys.calls(phone), o.keepMs],
        ]),
      );
    },

    async get(phone: string): Promise<CallRecord | undefined> {
      const h = await redis.hgetall(keys.calls(phone));
      if (!h.lastAt) return undefined;
      return {
        lastAt: Number(h.lastAt),
        campaign: h.campaign ?? "",
        attempts: Number(h.attempts ?? 0),
        ...(h.outcome ? { outcome: h.outcome, outcomeAt: Number(h.outcomeAt) } : {}),
      };
    },
  };
}

export type CallHistory = ReturnType<typeof createCallHistory>;
