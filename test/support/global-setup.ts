import type { TestProject } from "vitest/node";
import "./provided-context.ts";
import { startRedisServer } from "../../src/daemon/redis-server.ts";

/**
 * Test Redis, in this order: REDIS_URL when set; else a Redis container when a Docker engine
 * answers (testcontainers); else a private redis-server from PATH on a free port.
 */
export default async function setup(project: TestProject) {
  const fromEnv = process.env.REDIS_URL;
  if (fromEnv) {
    project.provide("redisUrl", fromEnv);
    return;
  }
  const container = await startContainer();
  if (container) {
    project.provide("redisUrl", container.url);
    return container.stop;
  }
  const server = await startRedisServer();
  project.provide("redisUrl", server.url);
  return () => server.stop();
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
