import type { Redis } from "ioredis";
import { isCluster, type RedisClient } from "./redis.ts";

/**
 * Deletes every key matching `pattern` (SCAN, then UNLINK one key at a time, so a Cluster routes
 * each to its slot): on every master of a Cluster. Returns how many went.
 */
export async function deleteMatching(redis: RedisClient, pattern: string): Promise<number> {
  const nodes: Redis[] = isCluster(redis) ? redis.nodes("master") : [redis];
  let deleted = 0;
  for (const node of nodes) {
    let cursor = "0";
    do {
      const [next, keys] = await node.scan(cursor, "MATCH", pattern, "COUNT", 1_000);
      cursor = next;
      for (const key of keys) deleted += await redis.unlink(key);
    } while (cursor !== "0");
  }
  return deleted;
}
