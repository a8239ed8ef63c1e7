import { type Locked, stillHolds, withLock } from "../../lib/lock.ts";
import type { RedisClient } from "../../lib/redis.ts";
import type { RedisKeys } from "../../lib/redis-keys.ts";

/** A start check's result and a repair's kept contacts live 30 days, past any campaign's start. */
const KEEP_MS = 30 * 86_400_000;
/** A check's lock, unless told (VCW_LOCK_MS): renewed while it runs, it lapses this long after its holder stopped. */
const LOCK_MS = 60_000;

/**
 * What the check before a campaign's start keeps, per campaign identity (its campaign key): the
 * result, made once under a lock so a late copy's check reads the same answer, and the contacts a
 * repair keeps before it empties the shared segment, and the lock of a file summary's checks. Generic over what is kept: stores/ knows no
 * campaign types.
 */
export function createStartCheckStore(redis: RedisClient, keys: RedisKeys, o: { lockMs?: number } = {}) {
  const lockMs = o.lockMs ?? LOCK_MS;
  const memoOf = (key: string) => keys.startCheck(key);
  return {
    /**
     * The result kept for `key`, or `check`'s, kept (both under the check's lock). `held` says,
     * as a delete leaves, whether the lock is still this check's (and renews it).
     */
    async once<T>(key: string, check: (held: () => Promise<boolean>) => Promise<T>): Promise<T> {
      const memo = memoOf(key);
      const lock = keys.lockOf(memo);
      const locked = await withLock(redis, lock, { ttlMs: lockMs }, async (_lost, token) => {
        const before = await redis.get(memo);
        if (before) return JSON.parse(before) as T;
        const made = await check(() => stillHolds(redis, lock, token, lockMs));
        await redis.set(memo, JSON.stringify(made), "PX", KEEP_MS);
        return made;
      });
      if (!locked.acquired) throw new Error(`lock ${keys.lockOf(memo)} not acquired`); // waits, so never
      return locked.value;
    },
    /**
     * `work` under the check's lock, nothing kept: a look for late copies after the check (the
     * check and a look never empty the same segment at once). `held` as for `once`.
     */
    async exclusive<T>(key: string, work: (held: () => Promise<boolean>) => Promise<T>): Promise<T> {
      const lock = keys.lockOf(memoOf(key));
      const locked = await withLock(redis, lock, { ttlMs: lockMs }, (_lost, token) =>
        work(() => stillHolds(redis, lock, token, lockMs)),
      );
      if (!locked.acquired) throw new Error(`lock ${lock} not acquired`); // waits, so never
      return locked.value;
    },
    /** A repair of `key` began: the contacts it keeps are remembered. */
    repairing: async (key: string) => (await redis.exists(keys.keepOf(memoOf(key)))) === 1,
    /** The contacts a repair keeps: the first repair's (`fresh` only if none was kept yet). */
    async keepOnce<T>(key: string, fresh: T): Promise<T> {
      const keepKey = keys.keepOf(memoOf(key));
      await redis.set(keepKey, JSON.stringify(fresh), "PX", KEEP_MS, "NX");
      const kept = await redis.get(keepKey);
      return kept ? (JSON.parse(kept) as T) : fresh;
    },
    /** Runs `work` as the one writer of the checks in a file's summary (its job and content). */
    noting: <T>(job: string, sha256: string, work: () => Promise<T>): Promise<Locked<T>> =>
      withLock(redis, keys.lockOf(keys.summaryOf(job, sha256)), { ttlMs: 30_000 }, work),
  };
}

export type StartCheckStore = ReturnType<typeof createStartCheckStore>;
