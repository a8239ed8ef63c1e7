import { Redis } from "ioredis";
import { findRedis } from "../daemon/redis-connection.ts";
import { resolveSettings, type Settings } from "../daemon/settings.ts";
import { CliError } from "./cli-error.ts";

/** Runs a command that reads the daemon's state: against the Redis it uses, never starting one. */
export async function withRedis<T>(
  run: (redis: Redis, settings: Settings, url: string) => Promise<T>,
): Promise<T> {
  const settings = resolveSettings();
  const url = await findRedis(settings.redisUrl, settings.home.value);
  if (!url)
    throw new CliError("no Redis is running (start the daemon with `vcw start`, or set REDIS_URL)", 1);
  const redis = new Redis(url, { maxRetriesPerRequest: null });
  try {
    return await run(redis, settings, url);
  } finally {
    await redis.quit();
  }
}
