import { resolveSettings, type Settings } from "../config/settings.ts";
import { findRedis } from "../daemon/redis-connection.ts";
import type { InboxStores } from "../inbox/inbox-store.ts";
import { connectRedis, describeTarget, type RedisClient } from "../lib/redis.ts";
import { type RedisKeys, redisKeys } from "../lib/redis-keys.ts";
import { openStores, type Stores, storeOptionsOf } from "../pipeline/open-stores.ts";
import { CliError } from "./cli-error.ts";

export interface RedisContext {
  /** The connection, for BullMQ's queues and the daemons' presence only: stores come from `stores`. */
  redis: RedisClient;
  keys: RedisKeys;
  settings: Settings;
  /** Where Redis is, fit to print (no password). */
  where: string;
  /** Every store, built once (pipeline/open-stores.ts), as the daemon's. */
  stores: Stores;
  /** Each job's inbox: a drop folder or a bucket prefix (`stores.inboxes`). */
  inboxes: InboxStores;
}

/**
 * Runs a command that reads the daemon's state: against the Redis it uses, never starting one.
 * A Redis that doesn't answer fails the command at once with a clear message; once connected, a
 * command that loses Redis fails instead of waiting for it.
 */
export async function withRedis<T>(run: (c: RedisContext) => Promise<T>): Promise<T> {
  const settings = resolveSettings();
  const target = await findRedis(settings, settings.home.value).catch((error: Error) => {
    throw new CliError(error.message, 1);
  });
  if (!target)
    throw new CliError("no Redis is running (start the daemon with `vcw start`, or set REDIS_URL)", 1);
  const redis = connectRedis(target, { maxRetriesPerRequest: 2, connectTimeout: 2_000 });
  redis.on("error", () => undefined);
  const keys = redisKeys(settings.prefix.value);
  const stores = openStores(redis, keys, storeOptionsOf(settings));
  try {
    return await run({
      redis,
      keys,
      settings,
      where: describeTarget(target),
      stores,
      inboxes: stores.inboxes,
    });
  } finally {
    stores.inboxes.close();
    redis.disconnect();
  }
}
