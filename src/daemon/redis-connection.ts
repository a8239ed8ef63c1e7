import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { delimiter, join } from "node:path";
import { pings, type RedisServer, startRedisServer } from "./redis-server.ts";
import { DEFAULT_REDIS_URL, type Setting } from "./settings.ts";

export interface ResolvedRedis {
  url: string;
  source: string;
  /** The private server this process started, if it did. */
  server?: RedisServer;
}

/**
 * The Redis to use: `REDIS_URL`; else the default URL when it answers; else a private
 * redis-server (found again through ./.vcw/redis.json, started when none answers).
 */
export async function resolveRedis(
  setting: Setting<string | undefined>,
  home: string,
  defaultUrl = DEFAULT_REDIS_URL,
): Promise<ResolvedRedis> {
  if (setting.value) {
    if (!(await pings(setting.value, 2_000))) {
      throw new Error(`Redis does not answer at ${setting.value} (${setting.source})`);
    }
    return { url: setting.value, source: setting.source };
  }
  if (await pings(defaultUrl)) return { url: defaultUrl, source: "default URL, it answered" };
  const record = join(home, "redis.json");
  const previous = await runningPrivateRedis(home);
  if (previous) return { url: previous, source: `private redis-server (${record})` };
  if (!onPath("redis-server")) {
    throw new Error(
      `No Redis answers at ${defaultUrl} and redis-server is not on PATH: start Redis or set REDIS_URL`,
    );
  }
  const server = await startRedisServer({ dir: join(home, "redis"), persist: true });
  await writeFile(record, `${JSON.stringify({ url: server.url, pid: server.process.pid })}\n`);
  return { url: server.url, source: `private redis-server started, data in ${join(home, "redis")}`, server };
}

/** Whether a private server started by an earlier `vcw` is running: for commands that only read. */
export async function findRedis(
  setting: Setting<string | undefined>,
  home: string,
): Promise<string | undefined> {
  if (setting.value) return setting.value;
  if (await pings(DEFAULT_REDIS_URL)) return DEFAULT_REDIS_URL;
  return runningPrivateRedis(home);
}

/** The URL of a private redis-server an earlier `vcw` started under `home`, if it still answers. */
async function runningPrivateRedis(home: string): Promise<string | undefined> {
  const url = await readFile(join(home, "redis.json"), "utf8").then(
    (t) => (JSON.parse(t) as { url?: string }).url,
    () => undefined,
  );
  return url && (await pings(url)) ? url : undefined;
}

function onPath(binary: string): boolean {
  return (process.env.PATH ?? "").split(delimiter).some((dir) => dir && existsSync(join(dir, binary)));
}
