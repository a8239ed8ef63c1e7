import type { Redis } from "ioredis";
import { PHONE_BATCH } from "./chunks.ts";
import { isCluster, type RedisClient } from "./redis.ts";

/** One Redis command on one key, as sent: its name, the key, then its other arguments. */
export type KeyCommand = readonly [name: string, key: string, ...args: (string | number)[]];

/**
 * Sends independent commands, each on a key of its own (a number's hash, its call times), and
 * answers their replies in order, as the named commands give them (HGETALL an object). They leave
 * together: each connection's socket is corked while they are handed to ioredis, so up to 1,000 go
 * out in one socket write per Redis node (one round trip) instead of one write per command. Each is
 * still a command of its own to ioredis: on a Cluster it goes to its key's slot and rides out
 * MOVED, ASK and a failover alone, as before (a cluster `pipeline()` refuses keys of nodes apart,
 * and retries a redirection only when all its commands got the same one). An ioredis `pipeline()`
 * would also do on a single Redis, but costs more CPU than it saves for a few commands (it copies
 * every defined script onto itself). A failed command fails the whole, as `Promise.all` did.
 */
export async function sendPerKey<T>(redis: RedisClient, commands: readonly KeyCommand[]): Promise<T[]> {
  const sent: Promise<unknown>[] = [];
  for (let i = 0; i < commands.length; i += PHONE_BATCH) {
    corked(redis, () => {
      for (let j = i; j < Math.min(i + PHONE_BATCH, commands.length); j++) {
        const [name, ...args] = commands[j]!;
        sent.push(redis.call(name, ...args));
      }
    });
  }
  return (await Promise.all(sent)) as T[];
}

/**
 * Like `sendPerKey`, for groups of commands on one key each (a write and its PEXPIRE), each group's
 * run in its order. On a single Redis the commands of all groups go in order on the one connection;
 * on a Cluster a group of more than one goes as a MULTI (one slot: ioredis sends it again whole on a
 * redirection, so a PEXPIRE never reaches a moved key before its write). The replies of each group.
 */
export async function sendPerKeyGroups<T>(
  redis: RedisClient,
  groups: readonly (readonly KeyCommand[])[],
): Promise<T[][]> {
  if (!isCluster(redis)) {
    const replies = await sendPerKey<T>(redis, groups.flat());
    const out: T[][] = [];
    let at = 0;
    for (const group of groups) {
      out.push(replies.slice(at, at + group.length));
      at += group.length;
    }
    return out;
  }
  const sent: Promise<T[]>[] = [];
  for (let i = 0; i < groups.length; i += PHONE_BATCH) {
    corked(redis, () => {
      for (const group of groups.slice(i, i + PHONE_BATCH)) {
        sent.push(
          group.length === 1
            ? redis.call(...group[0]!).then((reply) => [reply as T])
            : redis
                .multi(group.map((c) => [...c]))
                .exec()
                .then((r) => repliesOf<T>(r)),
        );
      }
    });
  }
  return Promise.all(sent);
}

/**
 * Runs `send` (commands handed to ioredis, which writes each to its node's socket at once when
 * connected) with every connected socket of `redis` corked: what it wrote leaves in one write per
 * socket when they are uncorked, before this returns. A connection not ready queues its commands
 * in ioredis as always.
 */
function corked(redis: RedisClient, send: () => void): void {
  const nodes: Redis[] = isCluster(redis) ? redis.nodes("all") : [redis];
  const streams = nodes.filter((n) => n.status === "ready" && n.stream).map((n) => n.stream);
  for (const s of streams) s.cork();
  try {
    send();
  } finally {
    for (const s of streams) s.uncork();
  }
}

/** A MULTI's replies; its first error thrown. */
function repliesOf<T>(results: [error: Error | null, reply: unknown][] | null): T[] {
  if (!results) throw new Error("Redis discarded the transaction");
  return results.map(([error, reply]) => {
    if (error) throw error;
    return reply as T;
  });
}
