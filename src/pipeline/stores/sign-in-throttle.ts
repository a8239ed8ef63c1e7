import type { RedisClient } from "../../lib/redis.ts";
import type { RedisKeys } from "../../lib/redis-keys.ts";
import { defineScript, LUA_NOW_MS } from "../../lib/scripts.ts";
import { withTimeout } from "../../lib/with-timeout.ts";

/**
 * Attempts to present the token (a sign-in, a bearer header) per client address: `max` in a
 * `windowMs`, then a wait of `windowMs` that each attempt made while waiting doubles, up to `capMs`.
 */
export const SIGN_IN_LIMIT = { max: 10, windowMs: 60_000, capMs: 86_400_000 };

/**
 * One step of an attempt, in Redis (every daemon counts the same, on Redis' clock). While the
 * client waits, any attempt is refused and doubles the wait (returns the ms to wait). Otherwise:
 * `count` counts a sign-in before its check, so concurrent guesses can't pass the limit (a right one
 * is handed back by `settle`; a wrong one `close`s); `peek` lets a bearer header be checked, and
 * `fail` counts a wrong one after its check (many requests in flight with the right token are never
 * held back). The `max`-th failure starts a wait, silently: the next attempt is the first refused,
 * told a wait of `window`, then doubled at each attempt. Once a wait is served the next attempt is
 * checked; a wrong one starts the wait again, as long as the last.
 */
const step = defineScript<number>(
  "sign_in_step",
  1,
  `${LUA_NOW_MS}
local k, op = KEYS[1], ARGV[4]
local max, window, cap = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local n = tonumber(redis.call('HGET', k, 'n') or '0')
local untilMs = tonumber(redis.call('HGET', k, 'until') or '0')
local level = tonumber(redis.call('HGET', k, 'level') or '-1')
local function waitFor(lvl)
  local w = math.min(cap, window * 2 ^ math.max(lvl, 0))
  redis.call('HSET', k, 'n', n, 'until', now_ms + w, 'level', lvl)
  redis.call('PEXPIRE', k, w + window)
  return w
end
local function keep()
  redis.call('HSET', k, 'n', n, 'until', 0)
  if n == 1 then redis.call('PEXPIRE', k, window) end
  return 0
end
if untilMs > now_ms then
  if op == 'fail' or op == 'close' then return 0 end
  n = n + 1
  return waitFor(level + 1)
end
if op == 'peek' then return 0 end
if untilMs > 0 then n = math.min(n, max - 1) end
if op == 'count' then
  n = n + 1
  if n > max then return waitFor(level + 1) end
  return keep()
end
if op == 'fail' then n = n + 1 end
if n >= max then
  waitFor(level)
  return 0
end
return keep()
`,
);

const settle = defineScript<number>(
  "sign_in_settle",
  1,
  `local n = redis.call('HINCRBY', KEYS[1], 'n', -1)
if n <= 0 and tonumber(redis.call('HGET', KEYS[1], 'until') or '0') == 0 then redis.call('DEL', KEYS[1]) end
return n`,
);

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

/**
 * The throttle every daemon shares through Redis. A Redis that does not answer within half a
 * second is not waited for: the attempt is checked (sign-in must work while Redis is down).
 */
export function signInThrottle(redis: RedisClient, keys: RedisKeys, limit = SIGN_IN_LIMIT): SignInThrottle {
  const run = async (client: string, op: "count" | "close" | "peek" | "fail") => {
    if (redis.status !== "ready") return 0;
    const answer = step(redis, [keys.signInAttempts(client)], [limit.max, limit.windowMs, limit.capMs, op]);
    return Number(
      await withTimeout(
        answer.catch(() => 0),
        500,
        0,
      ),
    );
  };
  return {
    signIn: (client) => run(client, "count"),
    async signedIn(client, right) {
      if (!right) await run(client, "close");
      else if (redis.status === "ready")
        await withTimeout(
          settle(redis, [keys.signInAttempts(client)]).catch(() => 0),
          500,
          0,
        );
    },
    bearer: (client) => run(client, "peek"),
    async wrongBearer(client) {
      await run(client, "fail");
    },
  };
}
