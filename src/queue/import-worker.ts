import { type ConnectionOptions, Worker } from "bullmq";
import type { createImportProcessor, ImportSummary } from "./import-processor.ts";
import { IMPORT_QUEUE, type ImportJobData } from "./import-queue.ts";

export interface ImportWorkerOptions {
  connection: ConnectionOptions;
  prefix: string;
  processor: ReturnType<typeof createImportProcessor>;
  /** Files imported at once by this worker. Default 2. */
  concurrency?: number;
  /** A worker that stops renewing its lock this long is presumed dead. Default 30 s. */
  lockDurationMs?: number;
  /** How often dead workers' jobs are looked for. Default 30 s. */
  stalledIntervalMs?: number;
  /** Worker deaths one file may survive before it fails. Default 10. */
  maxStalledCount?: number;
}

export function startImportWorker(o: ImportWorkerOptions): Worker<ImportJobData, ImportSummary> {
  return new Worker<ImportJobData, ImportSummary>(IMPORT_QUEUE, o.processor, {
    connection: o.connection,
    prefix: o.prefix,
    concurrency: o.concurrency ?? 2,
    lockDuration: o.lockDurationMs ?? 30_000,
    stalledInterval: o.stalledIntervalMs ?? 30_000,
    maxStalledCount: o.maxStalledCount ?? 10,
  });
}
