import { readdir } from "node:fs/promises";
import type { Queue, Worker } from "bullmq";
import { Redis } from "ioredis";
import type { Logger } from "pino";
import { type Client, createClient } from "../api/client.ts";
import type { JobDefinition } from "../config/job-definition.ts";
import { formatProblem, loadJobs } from "../config/load-jobs.ts";
import { createSharedRateLimiter, type SharedRateLimiter } from "../limiter/shared-rate-limiter.ts";
import { dropFolder, isCandidate } from "../pipeline/drop-folder.ts";
import { createFileRegistry } from "../pipeline/file-registry.ts";
import { admitFile, recoverFile } from "../queue/admit-file.ts";
import { createImportProcessor, type ImportSummary } from "../queue/import-processor.ts";
import { createImportQueue, type ImportJobData } from "../queue/import-queue.ts";
import { startImportWorker } from "../queue/import-worker.ts";
import { type Simulator, startSimulator } from "../simulator/server.ts";
import { type InboxWatcher, watchInbox } from "./inbox-watcher.ts";
import { resolveRedis } from "./redis-connection.ts";
import { describeSettings, type Settings, simulatorStateFile } from "./settings.ts";

export interface DaemonOptions {
  settings: Settings;
  logger: Logger;
  /** Watch the inboxes (the `start` role); workers alone don't. */
  watch: boolean;
  /** Run import workers. */
  work: boolean;
  /** Tuning for tests and operators. */
  worker?: { lockDurationMs?: number; stalledIntervalMs?: number; maxStalledCount?: number };
  stableMs?: number;
  attempts?: number;
  backoffMs?: number;
  /** Added to timeout × attempts to make the ledger lease. Default 15 s. */
  leaseMarginMs?: number;
}

export interface Daemon {
  redisUrl: string;
  baseUrl: string;
  client: Client;
  limiter: SharedRateLimiter;
  queue: Queue<ImportJobData>;
  jobs: ReadonlyMap<string, JobDefinition>;
  /** Resolves when every inbox has been scanned once. */
  ready: Promise<void>;
  close(): Promise<void>;
}

/** Wires the daemon's roles: embedded defaults, inbox watchers, import workers. */
export async function startDaemon(o: DaemonOptions): Promise<Daemon> {
  const { settings: s, logger } = o;
  for (const line of describeSettings(s)) logger.info(line);
  const cleanups: (() => Promise<unknown>)[] = [];
  const close = async () => {
    for (const cleanup of cleanups.reverse()) {
      await cleanup().catch((error: unknown) => logger.warn({ err: String(error) }, "error while stopping"));
    }
  };

  try {
    const redisAt = await resolveRedis(s.redisUrl, s.home.value);
    if (redisAt.server) cleanups.push(() => redisAt.server!.stop());
    logger.info({ url: redisAt.url }, `redis: ${redisAt.source}`);
    const redis = new Redis(redisAt.url, { maxRetriesPerRequest: null });
    cleanups.push(() => redis.quit());

    let baseUrl: string | undefined = s.baseUrl.value;
    let simulator: Simulator | undefined;
    if (!baseUrl) {
      simulator = await startSimulator({ apiKey: s.apiKey.value, port: 0, stateFile: simulatorStateFile(s) });
      cleanups.push(() => simulator!.close());
      baseUrl = simulator.url as string;
      logger.info({ url: baseUrl, stateFile: simulatorStateFile(s) }, "embedded simulator started");
    }

    const loaded = await loadJobs(s.jobsDir.value);
    for (const p of loaded.problems) logger.error(formatProblem(p));
    const jobs = new Map(loaded.jobs.map(({ job }) => [job.name, job]));
    if (jobs.size === 0) logger.warn(`no valid job definition in ${s.jobsDir.value}: nothing to watch`);

    const prefix = s.prefix.value;
    const limiter = createSharedRateLimiter({
      redis,
      key: `${prefix}:limit:{service}`,
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
    const bullPrefix = `${prefix}:bull`;
    const queue = createImportQueue({
      connection: redis,
      prefix: bullPrefix,
      ...(o.attempts ? { attempts: o.attempts } : {}),
      ...(o.backoffMs ? { backoffMs: o.backoffMs } : {}),
    });
    cleanups.push(() => queue.close());
    const registry = createFileRegistry(redis, prefix);

    const stopping = new AbortController();
    let worker: Worker<ImportJobData, ImportSummary> | undefined;
    if (o.work) {
      const leaseMs = s.requestTimeoutMs.value * (s.maxRetries.value + 1) + (o.leaseMarginMs ?? 15_000);
      const processor = createImportProcessor({
        jobs: () => jobs,
        client,
        redis,
        registry,
        prefix,
        leaseMs,
        logger,
        stopping: stopping.signal,
      });
      const workerRedis = new Redis(redisAt.url, { maxRetriesPerRequest: null });
      cleanups.push(() => workerRedis.quit());
      const w = startImportWorker({
        connection: workerRedis,
        prefix: bullPrefix,
        processor,
        concurrency: s.fileConcurrency.value,
        ...o.worker,
      });
      worker = w;
      w.on("error", (error) => logger.error({ err: error.message }, "import worker error"));
      cleanups.push(async () => {
        // Running imports save their checkpoint and go back to the queue; none is lost.
        stopping.abort();
        await w.close();
      });
    }

    const watchers: InboxWatcher[] = [];
    if (o.watch) {
      for (const def of jobs.values()) {
        const deps = { job: def.name, folder: dropFolder(def.inbox), registry, queue };
        const log = logger.child({ job: def.name });
        // One file at a time per job: admissions of one folder never race each other.
        let chain = Promise.resolve();
        const enqueue = (what: string, step: () => Promise<unknown>) => {
          chain = chain.then(step).then(
            (result) => log.info({ file: what, result }, "file admitted"),
            (error: unknown) => log.error({ file: what, err: String(error) }, "file could not be admitted"),
          );
        };
        const pending = await readdir(deps.folder.processing).catch(() => [] as string[]);
        for (const name of pending.filter((n) => isCandidate(n) && !n.includes(".errors.csv"))) {
          enqueue(name, () => recoverFile(name, deps));
        }
        const watcher = await watchInbox(def.inbox, (path) => enqueue(path, () => admitFile(path, deps)), {
          ...(o.stableMs === undefined ? {} : { stableMs: o.stableMs }),
        });
        watchers.push(watcher);
        log.info({ inbox: def.inbox, segment: def.segment }, "watching");
      }
      cleanups.push(async () => {
        await Promise.all(watchers.map((w) => w.close()));
      });
    }

    void worker;
    return {
      redisUrl: redisAt.url,
      baseUrl: baseUrl as string,
      client,
      limiter,
      queue,
      jobs,
      ready: Promise.all(watchers.map((w) => w.ready)).then(() => undefined),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
