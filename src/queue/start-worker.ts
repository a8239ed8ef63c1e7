import { type ConnectionOptions, type Processor, Worker } from "bullmq";

export interface WorkerOptions {
  connection: ConnectionOptions;
  prefix: string;
  /** Jobs run at once by this worker. */
  concurrency?: number;
  /** A worker that stops renewing its lock this long is presumed dead. Default 30 s. */
  lockDurationMs?: number;
  /** How often dead workers' jobs are looked for. Default 30 s. */
  stalledIntervalMs?: number;
  /** Worker deaths one job may survive before it fails. Default 10. */
  maxStalledCount?: number;
}

export function startWorker<D, R>(queue: string, processor: Processor<D, R>, o: WorkerOptions): Worker<D, R> {
  return new Worker<D, R>(queue, processor, {
    connection: o.connection,
    prefix: o.prefix,
    concurrency: o.concurrency ?? 1,
    lockDuration: o.lockDurationMs ?? 30_000,
    stalledInterval: o.stalledIntervalMs ?? 30_000,
    maxStalledCount: o.maxStalledCount ?? 10,
  });
}
