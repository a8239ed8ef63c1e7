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

/**
 * An attempt's answer: `ms` to wait (refused), or 0: check it. `why` a refusal: the client's
 * attempts, or Redis connected but not counting within half a second (`busy`).
 */
export interface ThrottleWait {
  ms: number;
  why: "attempts" | "busy";
}

export interface SignInThrottle {
  /** A sign-in, counted before its check. */
  signIn(client: string): Promise<ThrottleWait>;
  /** The sign-in was right (handed back) or wrong (its count stands; the limit may start a wait). */
  signedIn(client: string, right: boolean): Promise<void>;
  /** A bearer header. */
  bearer(client: string): Promise<ThrottleWait>;
  /** A wrong bearer token, counted. */
  wrongBearer(client: string): Promise<void>;
}

export interface ThrottleOptions {
  /** The clock the waits are told and served on (every daemon's is the host's). */
  now: () => number;
  limit?: typeof SIGN_IN_LIMIT;
}

/** How long an attempt waits for Redis's count, and how long it is refused when no count came. */
const ANSWER_MS = 500;
const BUSY_WAIT_MS = 1_000;
const CHECK: ThrottleWait = { ms: 0, why: "attempts" };

/**
 * The throttle every daemon shares through Redis. Sign-ins and bearer headers count apart, so that
 * a scraper with a stale token never locks the operator out, nor the other way round. With Redis
 * away (not connected, or gone while waited for) an attempt is checked: sign-in must work while
 * Redis is down. With Redis connected but no count within half a second (a slow Redis, or a flood
 * of attempts keeping this process busy), the attempt is refused for a second, never checked
 * uncounted: a flood must not open the throttle.
 */
export function signInThrottle(redis: RedisClient, keys: RedisKeys, o: ThrottleOptions): SignInThrottle {
  const limit = o.limit ?? SIGN_IN_LIMIT;
  const unwaited = <T>(answer: Promise<T>, otherwise: T) =>
    withTimeout(
      answer.catch(() => otherwise),
      ANSWER_MS,
      otherwise,
    );
  const run = async (
    way: TokenWay,
    client: string,
    op: "count" | "close" | "peek" | "fail",
  ): Promise<ThrottleWait> => {
    if (redis.status !== "ready") return CHECK;
    const args = [limit.max, limit.windowMs, limit.capMs, op, Math.round(o.now())];
    const counted = attempt(redis, [keys.tokenAttempts(way, client)], args).then(Number, () => 0);
    const wait = await withTimeout(counted, ANSWER_MS, undefined);
    if (wait !== undefined) return { ms: wait, why: "attempts" };
    return redis.status === "ready" ? { ms: BUSY_WAIT_MS, why: "busy" } : CHECK;
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
