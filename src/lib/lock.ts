import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { type KeyCommand, sendPerKey } from "./per-key.ts";
import type { RedisClient } from "./redis.ts";
import { defineScript, luaFile } from "./scripts.ts";

const release = defineScript<number>("unlock", 1, luaFile(import.meta.url, "lua/unlock.lua"));
const renew = defineScript<number>("renew_lock", 1, luaFile(import.meta.url, "lua/renew-lock.lua"));

/** Whether `token` still holds the lock at `key`, renewed for `ttlMs` if so: a fence's check. */
export const stillHolds = async (redis: RedisClient, key: string, token: string, ttlMs: number) =>
  (await renew(redis, [key], [token, ttlMs])) === 1;

export interface LockOptions {
  /** How long the lock holds without renewal: after its holder died, it frees itself this late. */
  ttlMs: number;
  /** Wait for a held lock (polling every `pollMs`), or give up at once when false. Default: wait. */
  wait?: boolean;
  pollMs?: number;
  signal?: AbortSignal;
  /**
   * Reads sent in the same round trip as the lock's SET (keys of the lock's slot), in one socket
   * write (per-key.ts); their replies go to `work`: what its holder reads first costs no round trip
   * of its own.
   */
  readWith?: readonly KeyCommand[];
}

/**
 * Lock tokens: a random prefix per process and a counter. Unique across holders as a random token
 * per lock was (two processes share a prefix with odds of 2^-64), without randomBytes per lock.
 */
const TOKEN_PREFIX = randomBytes(8).toString("hex");
let tokens = 0;
const nextToken = () => `${TOKEN_PREFIX}-${(tokens++).toString(36)}`;

export type Locked<T> = { acquired: true; value: T } | { acquired: false };

/**
 * Runs `work` holding a Redis lock (SET NX PX with a token of its own). The lock is renewed every
 * third of its TTL while the work runs, so work longer than the TTL keeps it; released only by its
 * holder. `lost` aborts if the lock is found taken by another (Redis lost it, or a long stall).
 */
export async function withLock<T>(
  redis: RedisClient,
  key: string,
  o: LockOptions,
  /**
   * `token`: this holder's, for checks of the lock made by the work itself (a fence); `read`: the
   * replies of `readWith`, read as the lock was taken.
   */
  work: (lost: AbortSignal, token: string, read: unknown[]) => Promise<T>,
): Promise<Locked<T>> {
  const token = nextToken();
  let taken = await acquire(redis, key, token, o);
  while (!taken) {
    if (o.wait === false) return { acquired: false };
    await sleep(o.pollMs ?? 50, undefined, o.signal ? { signal: o.signal } : {});
    taken = await acquire(redis, key, token, o);
  }
  const lost = new AbortController();
  const timer = setInterval(
    () => {
      renew(redis, [key], [token, o.ttlMs]).then(
        (ok) => {
          if (ok === 0) lost.abort(new Error(`lock ${key} was lost`));
        },
        () => undefined, // Redis away: the next renewal tries again; the TTL still covers us.
      );
    },
    Math.max(Math.floor(o.ttlMs / 3), 10),
  );
  timer.unref();
  try {
    return { acquired: true, value: await work(lost.signal, token, taken.read) };
  } finally {
    clearInterval(timer);
    await release(redis, [key], [token]).catch(() => undefined);
  }
}

/** SET NX PX, with `readWith`'s reads in the same round trip; undefined when the lock is another's. */
async function acquire(
  redis: RedisClient,
  key: string,
  token: string,
  o: LockOptions,
): Promise<{ read: unknown[] } | undefined> {
  if (!o.readWith)
    return (await redis.set(key, token, "PX", o.ttlMs, "NX")) === "OK" ? { read: [] } : undefined;
  const [set, ...read] = await sendPerKey<unknown>(redis, [
    ["set", key, token, "PX", o.ttlMs, "NX"],
    ...o.readWith,
  ]);
  return set === "OK" ? { read } : undefined;
}
