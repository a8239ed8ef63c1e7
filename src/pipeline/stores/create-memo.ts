import { withLock } from "../../lib/lock.ts";
import type { RedisClient } from "../../lib/redis.ts";
import type { RedisKeys } from "../../lib/redis-keys.ts";
import { defineScript, LUA_NOW_MS } from "../../lib/scripts.ts";

/** A create marked sent: when, and whether the service answered yes (without an id). */
export interface SentMark {
  at: number;
  answered?: boolean;
  /** What the create said that a finder needs (a campaign's scheduled_at: the start that was sent). */
  note?: string;
}

/** Whether a record was created (its id), may have been (a create sent, no id remembered), or not. */
export type CreateState = { kind: "exists"; id: string } | { kind: "may-exist" } | { kind: "none" };

/**
 * What vcw remembers of one record it creates once (pipeline/create-once.ts): its id, the mark of a
 * create sent, and the lock its creator holds. One record, one slot; the keys share a hash tag.
 */
export interface MemoSlot {
  /** The record's name in Redis: in messages, and the source of its create's idempotency key. */
  readonly name: string;
  id(): Promise<string | undefined>;
  state(): Promise<CreateState>;
  sent(): Promise<SentMark | undefined>;
  /** The service answered its create without an id (a lookup by name is all that is left). */
  markAnswered(at: number): Promise<void>;
  /** No create of it is in flight any more (it failed, or it may not be sent). */
  clearSent(): Promise<void>;
  remember(id: string): Promise<string>;
  /** Forgets an id the service no longer knows, if it is still the one remembered. */
  forget(staleId: string): Promise<void>;
  /** Redis' clock, so every worker's lookups are timed by one clock. */
  now(): Promise<number>;
  /**
   * Runs `work` holding the slot's lock (lib/lock.ts), renewed while it runs; `lost` aborts if it is
   * found taken. Not acquired: only with `wait: false` or an aborted `signal`.
   */
  locked<T>(
    o: { ttlMs: number; wait?: boolean; signal?: AbortSignal },
    work: (lost: AbortSignal, token: string) => Promise<T>,
  ): Promise<{ acquired: true; value: T } | { acquired: false }>;
  /**
   * The create's fence, run as the request leaves: the lock is still `token`'s (renewed for
   * `lockMs`) and the create is marked sent now, with its `note`, in one step. Its time; 0 if the
   * lock was lost.
   */
  fence(token: string, lockMs: number, note?: string): Promise<number>;
}

const fenceCreate = defineScript<number>(
  "create_fence",
  2,
  `${LUA_NOW_MS}
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
local mark = { at = now_ms }
if ARGV[3] ~= '' then mark.note = ARGV[3] end
redis.call('SET', KEYS[2], cjson.encode(mark))
return now_ms
`,
);

function memoSlot(redis: RedisClient, keys: RedisKeys, memo: string): MemoSlot {
  const sentKey = keys.sentOf(memo);
  const lock = keys.lockOf(memo);
  return {
    name: memo,
    id: async () => (await redis.get(memo)) ?? undefined,
    async state() {
      const [id, sent] = await Promise.all([redis.get(memo), redis.get(sentKey)]);
      if (id) return { kind: "exists", id };
      return sent ? { kind: "may-exist" } : { kind: "none" };
    },
    async sent() {
      const text = await redis.get(sentKey);
      return text ? (JSON.parse(text) as SentMark) : undefined;
    },
    // Under the slot's lock: the mark read here is the one its holder's fence wrote.
    async markAnswered(at) {
      const text = await redis.get(sentKey);
      const note = text ? (JSON.parse(text) as SentMark).note : undefined;
      await redis.set(
        sentKey,
        JSON.stringify({ at, answered: true, ...(note ? { note } : {}) } satisfies SentMark),
      );
    },
    clearSent: async () => {
      await redis.del(sentKey);
    },
    async remember(id) {
      await redis.set(memo, id);
      return id;
    },
    async forget(staleId) {
      if ((await redis.get(memo)) === staleId) await redis.del(memo);
    },
    async now() {
      const [s, us] = await redis.time();
      return Number(s) * 1000 + Math.floor(Number(us) / 1000);
    },
    locked: (o, work) => withLock(redis, lock, o, work),
    fence: (token, lockMs, note) => fenceCreate(redis, [lock, sentKey], [token, lockMs, note ?? ""]),
  };
}

/** The slots of the records vcw creates once: a file's (or a follow-up's) campaign, a segment by name. */
export function createCreateMemo(redis: RedisClient, keys: RedisKeys) {
  return {
    /** The campaign of a campaign key (pipeline/campaign/lifecycle.ts `campaignKey`). */
    campaign: (key: string) => memoSlot(redis, keys, keys.campaignMemo(key)),
    segment: (name: string) => memoSlot(redis, keys, keys.segmentMemo(name)),
  };
}

export type CreateMemo = ReturnType<typeof createCreateMemo>;
