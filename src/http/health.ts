import type { FastifyInstance } from "fastify";
import type { RedisClient } from "../lib/redis.ts";
import { withTimeout } from "../lib/with-timeout.ts";

export interface HealthSources {
  redis: RedisClient;
  /** The workers this process runs (BullMQ's Worker answers isRunning). */
  workers: () => readonly { name: string; isRunning(): boolean }[];
  /** True once the process is stopping: an orchestrator should send it nothing new. */
  stopping: () => boolean;
}

export interface Check {
  ok: boolean;
  detail: string;
}

/** Redis answers PING within a second; a Redis that is away fails at once, never hangs the probe. */
async function redisCheck(redis: RedisClient): Promise<Check> {
  if (redis.status !== "ready") return { ok: false, detail: `connection ${redis.status}` };
  const answer = await withTimeout(
    redis.ping().catch((error: Error) => `error: ${error.message}`),
    1_000,
    "no answer within 1 s",
  );
  return answer === "PONG" ? { ok: true, detail: "PONG" } : { ok: false, detail: answer };
}

function workersCheck(workers: readonly { name: string; isRunning(): boolean }[]): Check {
  const stopped = workers.filter((w) => !w.isRunning()).map((w) => w.name);
  return stopped.length === 0
    ? { ok: true, detail: `${workers.length} running` }
    : { ok: false, detail: `not running: ${stopped.join(", ")}` };
}

/**
 * `/livez` answers while the process and its event loop do: nothing outside it (Redis, the
 * service) can fail it, so an outage never gets the process restarted. `/readyz` is 503 while a
 * check fails, naming it, and 200 again by itself once the fault clears.
 */
export function installHealth(app: FastifyInstance, src: HealthSources): void {
  const started = Date.now();
  app.get("/livez", async () => ({ status: "ok", uptimeSec: Math.round((Date.now() - started) / 1000) }));
  app.get("/readyz", async (_req, reply) => {
    const checks: Record<string, Check> = {
      redis: await redisCheck(src.redis),
      workers: workersCheck(src.workers()),
    };
    if (src.stopping()) checks.process = { ok: false, detail: "stopping" };
    const failing = Object.keys(checks).filter((k) => !checks[k]!.ok);
    return reply
      .code(failing.length ? 503 : 200)
      .send({ status: failing.length ? "fail" : "ok", ...(failing.length ? { failing } : {}), checks });
  });
}
