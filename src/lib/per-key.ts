import { PHONE_BATCH } from "./chunks.ts";
import { isCluster, type RedisClient } from "./redis.ts";

/** One Redis command on one key, as sent: its name, the key, then its other arguments. */
export type KeyCommand = readonly [name: string, key: string, ...args: (string | number)[]];

/**
 * Sends independent commands, each on a key of its own (a number's hash, its call times), and
 * answers their replies in order, as the named commands give them (HGETALL an object). On a single
 * Redis they go as pipelines of up to 1,000 commands, sent at once: one socket write and one
 * round trip per 1,000 instead of one write per command. On a Cluster each goes as a command of
 * its own, as before: the keys' hash tags put them in different slots, which one pipeline takes
 * only when one node serves them all, and ioredis retries a pipeline's redirection only when every
 * command of it got the same one (a failover or a slot moved would fail the read). A failed
 * command fails the whole.
 */
export async function sendPerKey<T>(redis: RedisClient, commands: readonly KeyCommand[]): Promise<T[]> {
  if (!isCluster(redis)) return pipelined<T>(redis, commands);
  return Promise.all(commands.map(([name, ...args]) => redis.call(name, ...args) as Promise<T>));
}

/**
 * Like `sendPerKey`, for groups of commands on one key each (or keys of one hash tag), run in
 * their order: a write and its PEXPIRE. On a single Redis every group in the same pipelines (one
 * connection keeps their order); on a Cluster a group of one as a command of its own, a larger
 * one as a MULTI (one slot: ioredis sends it again whole on a redirection, so a PEXPIRE never
 * reaches a moved key before its write). The replies of each group, in order.
 */
export async function sendPerKeyGroups<T>(
  redis: RedisClient,
  groups: readonly (readonly KeyCommand[])[],
): Promise<T[][]> {
  if (isCluster(redis)) {
    return Promise.all(
      groups.map(async (group) =>
        group.length === 1
          ? sendPerKey<T>(redis, group)
          : repliesOf<T>(await redis.multi(group.map((c) => [...c])).exec()),
      ),
    );
  }
  const replies = await pipelined<T>(redis, groups.flat());
  const out: T[][] = [];
  let at = 0;
  for (const group of groups) {
    out.push(replies.slice(at, at + group.length));
    at += group.length;
  }
  return out;
}

/** `commands` on a single Redis, in pipelines of up to 1,000 sent at once: their replies in order. */
async function pipelined<T>(redis: RedisClient, commands: readonly KeyCommand[]): Promise<T[]> {
  if (commands.length === 0) return [];
  const sent: Promise<T[]>[] = [];
  for (let i = 0; i < commands.length; i += PHONE_BATCH) {
    const part = commands.slice(i, i + PHONE_BATCH).map((c) => [...c]);
    sent.push(
      redis
        .pipeline(part)
        .exec()
        .then((r) => repliesOf<T>(r)),
    );
  }
  return sent.length === 1 ? sent[0]! : (await Promise.all(sent)).flat();
}

/** A pipeline's or MULTI's replies; its first error thrown. */
function repliesOf<T>(results: [error: Error | null, reply: unknown][] | null): T[] {
  if (!results) throw new Error("Redis discarded the transaction");
  return results.map(([error, reply]) => {
    if (error) throw error;
    return reply as T;
  });
}
