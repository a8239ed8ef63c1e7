import type { RedisClient } from "../../../lib/redis.ts";
import type { RedisKeys } from "../../../lib/redis-keys.ts";

const BATCH = 500;

/**
 * Deletes a version no longer in force (replaced, removed, or a load that never finished). Its
 * index is renamed first, so a lookup that read it sees it go before any block does; a crash
 * half-way leaves it listed in `retired` or `loading` and the next import finishes the job.
 */
export async function retireVersion(redis: RedisClient, keys: RedisKeys, version: string): Promise<void> {
  const index = keys.dncRetiredBlocks(version);
  try {
    await redis.rename(keys.dncBlocks(version), index);
  } catch (error) {
    if (!/no such key/i.test(String(error))) throw error; // already renamed by an earlier attempt
  }
  for await (const members of redis.sscanStream(index, { count: BATCH }) as AsyncIterable<string[]>) {
    const blocks = members.filter((m) => m !== "-");
    await Promise.all(
      blocks.map((m) => {
        const [tag, block] = m.split(":") as [string, string];
        return redis.unlink(keys.dncBlock(version, tag, block));
      }),
    );
  }
  await redis.unlink(index);
  await redis.multi().hdel(keys.dncRetired, version).hdel(keys.dncLoading, version).exec();
}
