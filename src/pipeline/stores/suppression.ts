import type { RedisClient } from "../../lib/redis.ts";
import type { RedisKeys } from "../../lib/redis-keys.ts";

/** Phones that opted out: no later import of any job sends them again. A Redis set of E.164 numbers. */
export interface SuppressionList {
  add(phones: readonly string[]): Promise<number>;
  remove(phones: readonly string[]): Promise<number>;
  /** Which of `phones` are suppressed. */
  which(phones: readonly string[]): Promise<Set<string>>;
  list(): Promise<string[]>;
}

export function createSuppressionList(redis: RedisClient, keys: RedisKeys): SuppressionList {
  const key = keys.suppressed;
  return {
    add: async (phones) => (phones.length ? redis.sadd(key, ...phones) : 0),
    remove: async (phones) => (phones.length ? redis.srem(key, ...phones) : 0),
    async which(phones) {
      if (phones.length === 0) return new Set();
      const flags = await redis.smismember(key, ...phones);
      return new Set(phones.filter((_, i) => flags[i] === 1));
    },
    list: async () => (await redis.smembers(key)).sort(),
  };
}
