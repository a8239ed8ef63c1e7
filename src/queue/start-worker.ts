import { type BackoffStrategy, type ConnectionOptions, type Processor, Worker } from "bullmq";
import type { RedisKeys } from "../lib/redis-keys.ts";
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
}

export function startWorker<D, R>(
  kind: QueueKind,
  processor: Processor<D, R>,
  o: WorkerOptions,
): Worker<D, R> {
  return new Worker<D, R>(QUEUE_NAMES[kind], processor, {
    connection: o.connection,
    prefix: queuePrefix(o.keys, kind),
    concurrency: o.concurrency ?? 1,
    lockDuration: o.lockDurationMs ?? 30_000,
    stalledInterval: o.stalledIntervalMs ?? 30_000,
    maxStalledCount: o.maxStalledCount ?? 10,
    ...(o.backoffStrategy ? { settings: { backoffStrategy: o.backoffStrategy } } : {}),
  });
}
