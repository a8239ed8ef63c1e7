import { Cluster, Redis, type RedisOptions } from "ioredis";

/** A single Redis or a Redis Cluster: every part of vcw takes either. */
export type RedisClient = Redis | Cluster;

/** Where Redis is: one server by URL, or the seed nodes of a Cluster. */
export type RedisTarget = { url: string } | { cluster: ClusterNode[]; password?: string | undefined };

export interface ClusterNode {
  host: string;
  port: number;
}

/**
 * A connection. `blocking` ones (BullMQ workers) never give up on a command while Redis is away:
 * BullMQ requires `maxRetriesPerRequest: null` for them, and the daemon uses it throughout.
 */
export function connectRedis(target: RedisTarget, options: RedisOptions = {}): RedisClient {
  const o: RedisOptions = { maxRetriesPerRequest: null, ...options };
  if ("url" in target) return new Redis(target.url, o);
  return new Cluster(target.cluster, {
    redisOptions: { ...o, ...(target.password ? { password: target.password } : {}) },
    maxRedirections: 32,
    // Commands wait for the cluster to come back instead of failing, as on a single Redis.
    enableOfflineQueue: true,
  });
}

/**
 * `host:port,host:port` (or `redis://:password@host:port` URLs) as a Cluster target; throws naming
 * the bad entry.
 */
export function clusterTarget(text: string): RedisTarget {
  let password: string | undefined;
  const cluster = text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry) => {
      let url: URL;
      try {
        url = new URL(entry.includes("://") ? entry : `redis://${entry}`);
      } catch {
        throw new Error(`REDIS_CLUSTER_NODES: "${redactUrl(entry)}" is not host:port`);
      }
      const port = Number(url.port || 6379);
      if (!url.hostname || !Number.isInteger(port) || port <= 0)
        throw new Error(`REDIS_CLUSTER_NODES: "${redactUrl(entry)}" is not host:port`);
      if (url.password) password = decodeURIComponent(url.password);
      return { host: url.hostname, port };
    });
  if (cluster.length === 0) throw new Error("REDIS_CLUSTER_NODES names no node (host:port,host:port,...)");
  return { cluster, password };
}

/** A URL fit to print: the password (and user) replaced. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (!u.password && !u.username) return url;
    u.username = u.username ? "***" : "";
    u.password = u.password ? "***" : "";
    return u.toString();
  } catch {
    return url.replace(/\/\/[^@/]*@/, "//***@");
  }
}

/** The target fit to print. */
export const describeTarget = (t: RedisTarget) =>
  "url" in t ? redactUrl(t.url) : `cluster ${t.cluster.map((n) => `${n.host}:${n.port}`).join(",")}`;

export const isCluster = (redis: RedisClient): redis is Cluster => redis instanceof Cluster;

/** A second connection to the same Redis: ioredis 6's duplicate() differs between Redis and Cluster. */
export const duplicateClient = (redis: RedisClient): RedisClient =>
  isCluster(redis) ? redis.duplicate() : redis.duplicate();
