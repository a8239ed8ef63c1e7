import { randomBytes } from "node:crypto";
import type { Redis } from "ioredis";
import type { Logger } from "pino";
import { isCluster, type RedisClient } from "../lib/redis.ts";
import type { RedisKeys } from "../lib/redis-keys.ts";

type Node = Redis;

/** The servers behind a connection: the masters of a Cluster, or the one Redis. */
const serversOf = (redis: RedisClient): Node[] => (isCluster(redis) ? redis.nodes("master") : [redis]);

async function configOf(node: Node, name: string): Promise<string | undefined> {
  try {
    const [, value] = (await node.call("CONFIG", "GET", name)) as string[];
    return value;
  } catch {
    return undefined; // CONFIG is often renamed or refused on managed Redis
  }
}

async function infoField(node: Node, section: string, field: string): Promise<string | undefined> {
  const text = await node.info(section).catch(() => "");
  return new RegExp(`^${field}:(.*)$`, "m").exec(text)?.[1]?.trim();
}

/**
 * Checks Redis before relying on it. An eviction policy other than `noeviction` is refused: BullMQ
 * and the exactly-once ledger lose keys under it. No persistence is allowed, loudly: a restart then
 * costs a re-listing of segments and forgets queued work and campaign tracking.
 */
export async function checkRedis(
  redis: RedisClient,
  logger: Logger,
  /** How loud a Redis without persistence is: a warning for the daemon, a note for one-off commands. */
  level: "warn" | "info" = "warn",
): Promise<void> {
  for (const node of serversOf(redis)) {
    const where = `${node.options.host ?? "?"}:${node.options.port ?? "?"}`;
    const policy =
      (await configOf(node, "maxmemory-policy")) ?? (await infoField(node, "memory", "maxmemory_policy"));
    if (policy && policy !== "noeviction") {
      throw new Error(
        `Redis at ${where} evicts keys (maxmemory-policy ${policy}): BullMQ and the exactly-once ledger need noeviction. Set maxmemory-policy noeviction`,
      );
    }
    const aof =
      (await configOf(node, "appendonly")) ??
      ((await infoField(node, "persistence", "aof_enabled")) === "1" ? "yes" : undefined);
    const save = await configOf(node, "save");
    if (aof !== "yes" && save !== undefined && save.trim() === "") {
      logger[level](
        { redis: where },
        "Redis keeps nothing on disk (appendonly no, no save points). If it restarts, vcw re-lists each segment before sending again (no duplicate), but queued work and campaign tracking are lost: set appendonly yes",
      );
    } else if (aof === undefined && save === undefined) {
      logger.warn(
        { redis: where },
        "cannot read Redis' persistence settings (CONFIG refused): make sure it persists",
      );
    }
  }
}

/**
 * Notices a Redis that lost its data: a marker key is set once per deployment, and a daemon that
 * saw it and later finds it gone (or replaced) knows. `fresh` says whether this start created it:
 * the first start, or one after a loss.
 */
export async function watchEpoch(
  redis: RedisClient,
  keys: RedisKeys,
  o: { everyMs: number; onLoss: () => void; logger: Logger },
): Promise<{ fresh: boolean; stop(): void }> {
  const mine = randomBytes(8).toString("hex");
  const fresh = (await redis.set(keys.epoch, mine, "NX")) === "OK";
  let seen = fresh ? mine : await redis.get(keys.epoch);
  const timer = setInterval(() => {
    void (async () => {
      const now = await redis.get(keys.epoch);
      if (now !== null && now === seen) return;
      o.logger.error(
        "Redis lost its data (restarted without persistence?): files in processing/ are taken up again once requests in flight have landed; campaigns being polled are no longer followed",
      );
      const next = randomBytes(8).toString("hex");
      seen = (await redis.set(keys.epoch, next, "NX")) === "OK" ? next : await redis.get(keys.epoch);
      o.onLoss();
    })().catch(() => undefined); // Redis away: the next look tells
  }, o.everyMs);
  timer.unref();
  return { fresh, stop: () => clearInterval(timer) };
}
