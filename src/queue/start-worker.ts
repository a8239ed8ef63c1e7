import {
  type BackoffStrategy,
  type ConnectionOptions,
  DelayedError,
  type Job,
  type Processor,
  Worker,
} from "bullmq";
import type { Logger } from "pino";
import { workingFor } from "../lib/job-hold.ts";
import type { RedisClient } from "../lib/redis.ts";
import type { RedisKeys } from "../lib/redis-keys.ts";
import { JobLockLostError } from "../pipeline/errors.ts";
import { queueTelemetry } from "../telemetry/queue-telemetry.ts";
import { bullmqHold } from "./bullmq-hold.ts";
import { delayJob } from "./delay-job.ts";
import { HandBackError } from "./errors.ts";
import { QUEUE_NAMES, type QueueKind, queuePrefix } from "./queues.ts";

export interface WorkerOptions {
  connection: ConnectionOptions;
  keys: RedisKeys;
  /** Jobs run at once by this worker. */
  concurrency?: number;
  /** A worker that stops renewing its lock this long is presumed dead. Default 30 s. */
  lockDurationMs?: number;
  /** How often dead workers' jobs are looked for. Default 30 s. */
  stalledIntervalMs?: number;
  /** Worker deaths one job may survive before it fails. Default 10. */
  maxStalledCount?: number;
  /** The backoff of jobs whose type is not built in (backoff.ts). */
  backoffStrategy?: BackoffStrategy;
  /** Work this process lacks the definition for goes back to the queue for this long. Default 2 s. */
  handBackMs?: number;
  logger?: Logger;
}

export function startWorker<D, R>(
  kind: QueueKind,
  processor: Processor<D, R>,
  o: WorkerOptions,
): Worker<D, R> {
  const worker: Worker<D, R> = new Worker<D, R>(
    QUEUE_NAMES[kind],
    handingBack(
      holdingLock(processor, () => worker.getBackend() as unknown as QueueRedis, o.logger),
      o,
    ),
    {
      connection: o.connection,
      prefix: queuePrefix(o.keys, kind),
      concurrency: o.concurrency ?? 1,
      lockDuration: o.lockDurationMs ?? 30_000,
      stalledInterval: o.stalledIntervalMs ?? 30_000,
      maxStalledCount: o.maxStalledCount ?? 10,
      ...(o.backoffStrategy ? { settings: { backoffStrategy: o.backoffStrategy } } : {}),
      ...queueTelemetry(),
    },
  );
  // A job whose lock could not be renewed may be another worker's now: its signal stops its sends.
  worker.on("lockRenewalFailed", (jobIds) => {
    for (const id of jobIds) worker.cancelJob(id, "lock lost");
  });
  return worker;
}

/** The worker's Redis client and key naming (BullMQ's Redis backend). */
type QueueRedis = { client: Promise<RedisClient>; toKey(type: string): string };

/**
 * Every job of every queue runs holding its lock (lib/job-hold.ts): each fenced send checks it as
 * it leaves, so a job whose lock was lost sends nothing more; what it threw then is that loss.
 */
function holdingLock<D, R>(
  processor: Processor<D, R>,
  queue: () => QueueRedis,
  logger: Logger | undefined,
): Processor<D, R> {
  return async (job: Job<D, R>, token?: string, signal?: AbortSignal) => {
    if (!token) return processor(job, token, signal);
    const hold = bullmqHold(job, token, signal, queue());
    try {
      return await workingFor(hold, () => processor(job, token, signal));
    } catch (error) {
      // Moved to the delayed set by its own processor: the lock went with the move, nothing was lost.
      if (error instanceof DelayedError) throw error;
      if (await hold.held().catch(() => false)) throw error;
      const lost = new JobLockLostError(job.id);
      logger?.warn({ queue: job.queueName, jobId: job.id, err: String(error) }, lost.message);
      throw lost;
    }
  };
}

/** Said once a minute per missing definition: a job no process has waits visibly, not silently. */
const WARN_EVERY_MS = 60_000;

/**
 * A job this process should not run now (a definition it lacks in a rolling deploy, a sink whose
 * slots are busy) goes back to the delayed set, not counted as an attempt, for a process or a
 * moment that can run it.
 */
function handingBack<D, R>(processor: Processor<D, R>, o: WorkerOptions): Processor<D, R> {
  const warned = new Map<string, number>();
  return async (job: Job<D, R>, token?: string, signal?: AbortSignal) => {
    try {
      return await processor(job, token, signal);
    } catch (error) {
      if (!(error instanceof HandBackError) || !token) throw error;
      if (error.warn && Date.now() - (warned.get(error.topic) ?? 0) > WARN_EVERY_MS) {
        warned.set(error.topic, Date.now());
        o.logger?.warn(
          { queue: job.queueName, jobId: job.id },
          `${error.message}: another daemon must have it (a rolling deploy), or its jobs wait until one does`,
        );
      }
      return delayJob(job, token, Date.now() + (o.handBackMs ?? 2_000));
    }
  };
}
