import type { TestProject } from "vitest/node";
import "./provided-context.ts";
import { startRedisServer } from "../../src/daemon/redis-server.ts";
import { startLocalCluster } from "./redis-cluster.ts";
import { type S3Server, startMinio, startS3rver } from "./s3-server.ts";

/**
 * Test Redis, in this order: REDIS_URL when set; else a Redis container when a Docker engine
 * answers (testcontainers); else a private redis-server from PATH on a free port. And a Redis
 * Cluster for the cluster suite: REDIS_CLUSTER_NODES, else three local cluster-enabled servers.
 * And an S3-compatible server for bucket inboxes: MinIO in a container when a Docker engine answers,
 * else s3rver from node_modules (what CI runs).
 */
export default async function setup(project: TestProject) {
  held[HELD] ??= startAll();
  const redis = await held[HELD];
  redis.users++;
  project.provide("redisUrl", redis.url);
  project.provide("clusterNodes", redis.nodes);
  const { stop: _, ...s3 } = redis.s3;
  project.provide("s3", s3);
  return async () => {
    if (--redis.users > 0) return;
    delete held[HELD];
    for (const stop of redis.stops) await stop();
  };
}

/**
 * The redis, browser and chaos projects each name this setup, and vitest runs it once per project:
 * they share one Redis and one Cluster, as one run had before the projects, the last to finish
 * stopping them. Kept on globalThis because vitest loads this module once per project.
 */
interface SharedRedis {
  url: string;
  nodes: string;
  s3: S3Server;
  stops: (() => Promise<void>)[];
  users: number;
}
const HELD = Symbol.for("vcw.test-redis");
const held = globalThis as { [HELD]?: Promise<SharedRedis> };

async function startAll(): Promise<SharedRedis> {
  const stops: (() => Promise<void>)[] = [];
  const url = await singleRedis(stops);
  const nodes = await cluster(stops);
  const s3 = (await startMinio()) ?? (await startS3rver());
  stops.push(s3.stop);
  return { url, nodes, s3, stops, users: 0 };
}

async function singleRedis(stops: (() => Promise<void>)[]): Promise<string> {
  const fromEnv = process.env.REDIS_URL;
  if (fromEnv) return fromEnv;
  const container = await startContainer();
  if (container) {
    stops.push(container.stop);
    return container.url;
  }
  const server = await startRedisServer();
  stops.push(() => server.stop());
  return server.url;
}

/** The cluster tests' Redis Cluster: REDIS_CLUSTER_NODES when set, else three local masters. */
async function cluster(stops: (() => Promise<void>)[]): Promise<string> {
  const fromEnv = process.env.REDIS_CLUSTER_NODES;
  if (fromEnv) return fromEnv;
  const local = await startLocalCluster(3);
  stops.push(local.stop);
  return local.nodes;
}

async function startContainer(): Promise<{ url: string; stop: () => Promise<void> } | undefined> {
  const { GenericContainer, getContainerRuntimeClient } = await import("testcontainers");
  try {
    await getContainerRuntimeClient();
  } catch {
    return undefined; // no Docker engine here
  }
  const container = await new GenericContainer("redis:7-alpine").withExposedPorts(6379).start();
  return {
    url: `redis://${container.getHost()}:${container.getMappedPort(6379)}`,
    stop: async () => {
      await container.stop();
    },
  };
}
