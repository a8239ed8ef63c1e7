import type { Redis } from "ioredis";
import { isCluster, type RedisClient } from "./redis.ts";

/** Every key matching `pattern`, by SCAN on every master of a Cluster (a key may come twice: SCAN's promise). */
export async function* keysMatching(redis: RedisClient, pattern: string): AsyncGenerator<string> {
  const nodes: Redis[] = isCluster(redis) ? redis.nodes("master") : [redis];
  for (const node of nodes) {
    let cursor = "0";
    do {
      const [next, keys] = await node.scan(cursor, "MATCH", pattern, "COUNT", 1_000);
      cursor = next;
      yield* keys;
    } while (cursor !== "0");
  }
}

/**
 * Deletes every key matching `pattern` (SCAN, then UNLINK one key at a time, so a Cluster routes
 * each to its slot): on every master of a Cluster. Returns how many went.
 */
export async function deleteMatching(redis: RedisClient, pattern: string): Promise<number> {
  let deleted = 0;
  for await (const key of keysMatching(redis, pattern)) deleted += await redis.unlink(key);
  return deleted;
}
