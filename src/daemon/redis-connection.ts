import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";
import { Cluster } from "ioredis";
import { DEFAULT_REDIS_URL, type Settings } from "../config/settings.ts";
import { ensurePrivateFolder, writeOwnFile } from "../lib/own-file.ts";
import { describeTarget, type RedisTarget, redactUrl } from "../lib/redis.ts";
import { withTimeout } from "../lib/with-timeout.ts";
import { readHomeRecord } from "./home-record.ts";
import { pings, type RedisServer, startRedisServer } from "./redis-server.ts";

export interface ResolvedRedis {
  target: RedisTarget;
  source: string;
  /** The private server this process started, if it did. */
  server?: RedisServer;
}

type RedisSettings = Pick<Settings, "redisUrl" | "redisCluster">;

/**
 * The Redis to use: a Cluster (`REDIS_CLUSTER_NODES`); `REDIS_URL`; else the default URL when it
 * answers; else a private redis-server (found again through ./.vcw/redis.json when that record is
 * trusted, started when none answers). A given Redis that doesn't answer is an error naming it,
 * without its password; a record anyone else could have written is refused, naming the check.
 */
export async function resolveRedis(
  s: RedisSettings,
  home: string,
  defaultUrl = DEFAULT_REDIS_URL,
): Promise<ResolvedRedis> {
  const given = givenTarget(s);
  if (given) {
    if (!(await answers(given.target, 2_000))) {
      throw new Error(`Redis does not answer at ${describeTarget(given.target)} (${given.source})`);
    }
    return given;
  }
  if (await pings(defaultUrl)) return { target: { url: defaultUrl }, source: "default URL, it answered" };
  const record = redisRecordOf(home);
  const previous = await privateRedis(home);
  if (previous.url) return { target: { url: previous.url }, source: `private redis-server (${record})` };
  if (!onPath("redis-server")) {
    throw new Error(
      `No Redis answers at ${defaultUrl} and redis-server is not on PATH: start Redis or set REDIS_URL`,
    );
  }
  await ensurePrivateFolder(home);
  const server = await startRedisServer({ dir: join(home, "redis"), persist: true });
  await writeOwnFile(record, `${JSON.stringify({ url: server.url, pid: server.process.pid })}\n`);
  return {
    target: { url: server.url },
    source: `private redis-server started, data in ${join(home, "redis")}${previous.why ? ` (${record}: ${previous.why})` : ""}`,
    server,
  };
}

/**
 * The Redis a command that only reads should use: the one configured, else one a running daemon
 * uses. Never starts one. A configured Redis that doesn't answer within `timeoutMs` is an error.
 */
export async function findRedis(
  s: RedisSettings,
  home: string,
  timeoutMs = 2_000,
): Promise<RedisTarget | undefined> {
  const given = givenTarget(s);
  if (given) {
    if (!(await answers(given.target, timeoutMs)))
      throw new Error(`Redis does not answer at ${describeTarget(given.target)} (${given.source})`);
    return given.target;
  }
  if (await pings(DEFAULT_REDIS_URL)) return { url: DEFAULT_REDIS_URL };
  const { url } = await privateRedis(home);
  return url ? { url } : undefined;
}

function givenTarget(s: RedisSettings): { target: RedisTarget; source: string } | undefined {
  if (s.redisCluster.value) return { target: s.redisCluster.value, source: s.redisCluster.source };
  if (s.redisUrl.value) return { target: { url: s.redisUrl.value }, source: s.redisUrl.source };
  return undefined;
}

/** Whether the target answers PING within `timeoutMs` (a Cluster: one of its nodes, and its slots). */
export async function answers(target: RedisTarget, timeoutMs: number): Promise<boolean> {
  if ("url" in target) return pings(target.url, timeoutMs);
  const cluster = new Cluster(target.cluster, {
    lazyConnect: true,
    clusterRetryStrategy: () => null,
    enableOfflineQueue: false,
    redisOptions: {
      connectTimeout: timeoutMs,
      maxRetriesPerRequest: 0,
      ...(target.password ? { password: target.password } : {}),
    },
  });
  cluster.on("error", () => undefined);
  const answer = async () => {
    await cluster.connect();
    return (await cluster.ping()) === "PONG";
  };
  try {
    return await withTimeout(
      answer().catch(() => false),
      timeoutMs,
      false,
    );
  } finally {
    cluster.disconnect();
  }
}

/** Where the private redis-server a vcw started under `home` is written down. */
export const redisRecordOf = (home: string) => join(home, "redis.json");

/**
 * The private redis-server an earlier `vcw` started under `home`, when its record is trusted
 * (daemon/home-record.ts: a record anyone else could have written is refused) and it answers;
 * else why there is none to use.
 */
async function privateRedis(home: string): Promise<{ url?: string; why?: string }> {
  const found = await readHomeRecord(redisRecordOf(home));
  if (found.kind === "none") return {};
  if (found.kind === "stale") return { why: found.reason };
  if (found.kind === "unreadable" || !found.record.url) return { why: "it is unreadable" };
  const { url } = found.record;
  return (await pings(url)) ? { url } : { why: `it does not answer at ${redactUrl(url)}` };
}

function onPath(binary: string): boolean {
  return (process.env.PATH ?? "").split(delimiter).some((dir) => dir && existsSync(join(dir, binary)));
}
