import type { RedisClient } from "../../lib/redis.ts";
import type { RedisKeys } from "../../lib/redis-keys.ts";
import { withTimeout } from "../../lib/with-timeout.ts";

/**
 * Operator sessions signed out before they expire: kept here (this process) and in Redis (the
 * others), each until it would have expired anyway.
 */
export interface RevokedSessions {
  add(id: string, untilMs: number): Promise<void>;
  has(id: string): Promise<boolean>;
}

/**
 * Signed-out sessions: in this process's memory (always answers) and in Redis (so the other
 * daemons refuse them too). A Redis that does not answer within half a second is not waited for.
 */
export function revokedSessions(redis: RedisClient, keys: RedisKeys): RevokedSessions {
  const here = new Map<string, number>();
  const forget = () => {
    const now = Date.now();
    for (const [id, until] of here) if (until <= now) here.delete(id);
  };
  return {
    async add(id, untilMs) {
      forget();
      here.set(id, untilMs);
      const ttl = Math.max(1, untilMs - Date.now());
      await withTimeout(
        redis.set(keys.revokedSession(id), "1", "PX", ttl).catch(() => undefined),
        500,
        undefined,
      );
    },
    async has(id) {
      if ((here.get(id) ?? 0) > Date.now()) return true;
      if (redis.status !== "ready") return false;
      const n = await withTimeout(
        redis.exists(keys.revokedSession(id)).catch(() => 0),
        500,
        0,
      );
      return n === 1;
    },
  };
}
