import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, inject } from "vitest";
import { redisKeys } from "../../src/lib/redis-keys.ts";

/** A Redis connection for one test file, and a key prefix no other test uses. */
export function useRedis() {
  const redis = new Redis(inject("redisUrl"), { maxRetriesPerRequest: null });
  afterAll(async () => {
    await redis.quit();
  });
  const prefix = () => `vcw-test-${randomBytes(4).toString("hex")}`;
  return { redis, prefix, keys: () => redisKeys(prefix()) };
}
