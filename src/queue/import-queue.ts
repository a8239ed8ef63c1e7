import { type ConnectionOptions, Queue } from "bullmq";

export const IMPORT_QUEUE = "vcw-import";

/** What an import job holds: where the file is and what it contains. Never rows, never secrets. */
export interface ImportJobData {
  /** Name of the job definition (jobs/*.yaml). */
  job: string;
  /** Admitted name of the file in the job's processing/ folder. */
  file: string;
  sha256: string;
  /** The name it arrived under, for people. */
  original: string;
  /** Import generation of this content (see the file registry). */
  gen?: number;
}

export interface ImportQueueOptions {
  connection: ConnectionOptions;
  /** BullMQ key prefix; wrap in braces (`{vcw}`) for Redis Cluster. */
  prefix: string;
  /** Attempts per file before it is rejected. Default 5. */
  attempts?: number;
  /** First retry delay; doubles each attempt. Default 5 s. */
  backoffMs?: number;
}

export function createImportQueue(o: ImportQueueOptions): Queue<ImportJobData> {
  return new Queue<ImportJobData>(IMPORT_QUEUE, {
    connection: o.connection,
    prefix: o.prefix,
    defaultJobOptions: {
      attempts: o.attempts ?? 5,
      backoff: { type: "exponential", delay: o.backoffMs ?? 5_000 },
      removeOnComplete: { count: 1_000 },
      removeOnFail: false,
    },
  });
}

/** One id per file content and import generation, so enqueueing again is a no-op. */
export const importJobId = (job: string, sha256: string, gen: number) =>
  `import-${job}-${sha256.slice(0, 16)}-${gen}`;

export async function enqueueImport(queue: Queue<ImportJobData>, data: ImportJobData, gen: number) {
  return queue.add(
    `${data.job}/${data.original}`,
    { ...data, gen },
    { jobId: importJobId(data.job, data.sha256, gen) },
  );
}
