import { Redis } from "ioredis";
import type { Logger } from "pino";
import { type Client, createClient } from "../api/client.ts";
import type { JobDefinition } from "../config/job-definition.ts";
import { formatProblem, loadJobs } from "../config/load-jobs.ts";
import type { SinkDefinition } from "../config/sink-definition.ts";
import { createSharedRateLimiter, type SharedRateLimiter } from "../limiter/shared-rate-limiter.ts";
import { startSimulator } from "../simulator/server.ts";
import { resolveRedis } from "./redis-connection.ts";
import { type Settings, simulatorStateFile } from "./settings.ts";

/** What every role needs: Redis, the service (or the embedded simulator), the client, the jobs. */
export interface Services {
  redis: Redis;
  redisUrl: string;
  baseUrl: string;
  client: Client;
  limiter: SharedRateLimiter;
  jobs: ReadonlyMap<string, JobDefinition>;
  sinks: Record<string, SinkDefinition>;
  /** Cleanups run in reverse order by `close`; roles add their own. */
  onClose(cleanup: () => Promise<unknown>): void;
  close(): Promise<void>;
}

export interface ServicesOptions {
  /** Start the embedded simulator when no VCS_BASE_URL is set (the `start` and `import` roles). */
  embeddedSimulator: boolean;
}

export async function openServices(s: Settings, logger: Logger, o: ServicesOptions): Promise<Services> {
  const cleanups: (() => Promise<unknown>)[] = [];
  const close = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) {
      await cleanup().catch((error: unknown) => logger.warn({ err: String(error) }, "error while stopping"));
    }
  };
  try {
    const redisAt = await resolveRedis(s.redisUrl, s.home.value);
    if (redisAt.server) cleanups.push(() => redisAt.server!.stop());
    logger.info({ url: redisAt.url }, `redis: ${redisAt.source}`);
    const redis = new Redis(redisAt.url, { maxRetriesPerRequest: null });
    cleanups.push(() => redis.quit());

    let baseUrl = s.baseUrl.value;
    if (!baseUrl) {
      if (!o.embeddedSimulator) {
        throw new Error("Set VCS_BASE_URL to the calling service (workers never start their own simulator)");
      }
      const stateFile = simulatorStateFile(s);
      const sim = await startSimulator({
        apiKey: s.apiKey.value,
        port: 0,
        stateFile,
        demoRecords: true,
        timeScale: s.simTimeScale.value,
      });
      cleanups.push(() => sim.close());
      baseUrl = sim.url;
      logger.info({ url: baseUrl, stateFile }, "embedded simulator started");
    }

    const loaded = await loadJobs(s.jobsDir.value);
    for (const p of loaded.problems) logger.error(formatProblem(p));
    const jobs = new Map(loaded.jobs.map(({ job }) => [job.name, job]));

    const limiter = createSharedRateLimiter({
      redis,
      key: `${s.prefix.value}:limit:{service}`,
      limit: s.rateLimit.value,
      onError: (error) => logger.warn({ err: String(error) }, "rate limiter could not reach Redis"),
    });
    const client = createClient({
      baseUrl,
      apiKey: s.apiKey.value,
      timeoutMs: s.requestTimeoutMs.value,
      maxRetries: s.maxRetries.value,
      gate: limiter,
      logger: logger.child({ component: "api" }),
    });
    return {
      redis,
      redisUrl: redisAt.url,
      baseUrl,
      client,
      limiter,
      jobs,
      sinks: loaded.sinks,
      onClose: (cleanup) => cleanups.push(cleanup),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The ledger lease: longer than any request can stay in flight, so a live attempt is never overtaken. */
export const leaseMsOf = (s: Settings) =>
  s.requestTimeoutMs.value * (s.maxRetries.value + 1) + s.leaseMarginMs.value;
