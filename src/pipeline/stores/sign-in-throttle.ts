import type { RedisClient } from "../../lib/redis.ts";
import type { RedisKeys, TokenWay } from "../../lib/redis-keys.ts";
import { defineScript, luaFile } from "../../lib/scripts.ts";
import { withTimeout } from "../../lib/with-timeout.ts";

/**
 * Attempts to present the token per client address and per way (sign-in, bearer header): `max`
 * wrong in a `windowMs`, then a wait of `windowMs`, doubled at each new wait up to `capMs`.
 */
export const SIGN_IN_LIMIT = { max: 10, windowMs: 60_000, capMs: 86_400_000 };

/**
 * One attempt, in Redis (every daemon counts the same), at `now`. While the client waits, any
 * attempt is refused and told what is left of the wait, which it never moves. Otherwise:
 * `count` counts a sign-in before its check, so concurrent guesses can't pass the limit (a right one
 * is handed back by `settle`; a wrong one `close`s); `peek` lets a bearer header be checked, and
 * `fail` counts a wrong one after its check (many requests in flight with the right token are never
 * held back). The `max`-th failure within a window starts a wait, silently. A wait served, the next
 * attempt is checked, and a wrong one starts the next wait, twice as long as the last; a window after
 * a wait ends, the client is forgotten. Times are the caller's clock; the key's expiry only tidies.
 */
const attempt = defineScript<number>(
  "sign_in_attempt",
  1,
  luaFile(import.meta.url, "lua/sign-in-attempt.lua"),
);

const settle = defineScript<number>("sign_in_settle", 1, luaFile(import.meta.url, "lua/sign-in-settle.lua"));

export interface SignInThrottle {
  /** A sign-in, counted before its check: ms to wait (refused), or 0: check it. */
  signIn(client: string): Promise<number>;
  /** The sign-in was right (handed back) or wrong (its count stands; the limit may start a wait). */
  signedIn(client: string, right: boolean): Promise<void>;
  /** A bearer header: ms to wait (refused), or 0: check it. */
  bearer(client: string): Promise<number>;
  /** A wrong bearer token, counted. */
  wrongBearer(client: string): Promise<void>;
}

export interface ThrottleOptions {
  /** The clock the waits are told and served on (every daemon's is the host's). */
  now: () => number;
  limit?: typeof SIGN_IN_LIMIT;
}

/**
 * The throttle every daemon shares through Redis. Sign-ins and bearer headers count apart, so that
 * a scraper with a stale token never locks the operator out, nor the other way round. A Redis that
 * does not answer within half a second is not waited for: the attempt is checked (sign-in must
 * work while Redis is down).
 */
export function signInThrottle(redis: RedisClient, keys: RedisKeys, o: ThrottleOptions): SignInThrottle {
  const limit = o.limit ?? SIGN_IN_LIMIT;
  const unwaited = <T>(answer: Promise<T>, otherwise: T) =>
    withTimeout(
      answer.catch(() => otherwise),
      500,
      otherwise,
    );
  const run = async (way: TokenWay, client: string, op: "count" | "close" | "peek" | "fail") => {
    if (redis.status !== "ready") return 0;
    const args = [limit.max, limit.windowMs, limit.capMs, op, Math.round(o.now())];
    return Number(await unwaited(attempt(redis, [keys.tokenAttempts(way, client)], args), 0));
  };
  return {
    signIn: (client) => run("sign-in", client, "count"),
    async signedIn(client, right) {
      if (!right) await run("sign-in", client, "close");
      else if (redis.status === "ready")
        await unwaited(settle(redis, [keys.tokenAttempts("sign-in", client)]), 0);
    },
    bearer: (client) => run("bearer", client, "peek"),
    async wrongBearer(client) {
      await run("bearer", client, "fail");
    },
  };
}
