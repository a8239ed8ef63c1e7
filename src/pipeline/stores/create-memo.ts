import { withLock } from "../../lib/lock.ts";
import type { RedisClient } from "../../lib/redis.ts";
import type { RedisKeys } from "../../lib/redis-keys.ts";
import { defineScript, LUA_NOW_MS, luaFile } from "../../lib/scripts.ts";

/** A create marked sent: when, and whether the service answered yes (without an id). */
export interface SentMark {
  at: number;
  answered?: boolean;
  /** What the create said that a finder needs (a campaign's scheduled_at: the start that was sent). */
  note?: string;
  /**
   * How many creates were sent while the mark stood (absent: one, as marks of older versions): more
   * than one, an earlier copy may still land late (a held request), so the campaign is watched for it.
   */
  sends?: number;
}

/** Whether a record was created (its id), may have been (a create sent, no id remembered), or not. */
export type CreateState = { kind: "exists"; id: string } | { kind: "may-exist" } | { kind: "none" };

/**
 * What vcw remembers of one record it creates once (pipeline/create-once.ts): its id, the mark of a
 * create sent, and the lock its creator holds. One record, one slot; the keys share a hash tag.
 */
export interface MemoSlot {
  /** The record's key in Redis: in messages. */
  readonly name: string;
  /** What it names, as it did before keys were digests: the source of its create's idempotency key. */
  readonly identity: string;
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
  luaFile(import.meta.url, "lua/create-fence.lua", { LUA_NOW_MS }),
);

/**
 * Where one slot lives: its key (and beside it its lock and sent mark), and the key the version
 * before wrote it under, read too (a rolling deploy); what it names, for the idempotency key.
 */
interface SlotKeys {
  memo: string;
  legacy?: string;
  identity: string;
  ttlMs: number;
}

function memoSlot(redis: RedisClient, keys: RedisKeys, k: SlotKeys): MemoSlot {
  const { memo, legacy, ttlMs } = k;
  const sentKey = keys.sentOf(memo);
  const lock = keys.lockOf(memo);
  /** The value at `key`, or at its legacy twin. */
  const read = async (of: (memo: string) => string) =>
    (await redis.get(of(memo))) ?? (legacy ? await redis.get(of(legacy)) : null);
  const own = (memo: string) => memo;
  return {
    name: memo,
    identity: k.identity,
    id: async () => (await read(own)) ?? undefined,
    async state() {
      const [id, sent] = await Promise.all([read(own), read(keys.sentOf)]);
      if (id) return { kind: "exists", id };
      return sent ? { kind: "may-exist" } : { kind: "none" };
    },
    async sent() {
      const text = await read(keys.sentOf);
      return text ? (JSON.parse(text) as SentMark) : undefined;
    },
    // Under the slot's lock: the mark read here is the one its holder's fence wrote.
    async markAnswered(at) {
      const text = await redis.get(sentKey);
      const { note, sends } = text ? (JSON.parse(text) as SentMark) : {};
      await redis.set(
        sentKey,
        JSON.stringify({
          at,
          answered: true,
          ...(note ? { note } : {}),
          ...(sends ? { sends } : {}),
        } satisfies SentMark),
        "PX",
        ttlMs,
      );
    },
    clearSent: async () => {
      await redis.del(sentKey);
      if (legacy) await redis.del(keys.sentOf(legacy));
    },
    async remember(id) {
      await redis.set(memo, id, "PX", ttlMs);
      return id;
    },
    async forget(staleId) {
      for (const key of legacy ? [memo, legacy] : [memo])
        if ((await redis.get(key)) === staleId) await redis.del(key);
    },
    async now() {
      const [s, us] = await redis.time();
      return Number(s) * 1000 + Math.floor(Number(us) / 1000);
    },
    locked: (o, work) => withLock(redis, lock, o, work),
    fence: (token, lockMs, note) => fenceCreate(redis, [lock, sentKey], [token, lockMs, ttlMs, note ?? ""]),
  };
}

/**
 * The slots of the records vcw creates once: a file's (or a follow-up's) campaign, a segment by
 * name. Each lives as long as what vcw keeps of a campaign (VCW_RETENTION_DAYS), far past any
 * create's settle time; one forgotten is looked up again by name (a segment vcw did not name) or
 * was made for a file long settled.
 */
export function createCreateMemo(redis: RedisClient, keys: RedisKeys, o: { retentionMs?: number } = {}) {
  const ttlMs = o.retentionMs ?? 30 * 86_400_000;
  return {
    /** The campaign of a campaign key (pipeline/campaign/lifecycle.ts `campaignKey`): ids and hashes, no names. */
    campaign: (key: string) => {
      const memo = keys.campaignMemo(key);
      return memoSlot(redis, keys, { memo, identity: memo, ttlMs });
    },
    segment: (name: string) => {
      const legacy = keys.legacySegmentMemo(name);
      return memoSlot(redis, keys, { memo: keys.segmentMemo(name), legacy, identity: legacy, ttlMs });
    },
  };
}

export type CreateMemo = ReturnType<typeof createCreateMemo>;
