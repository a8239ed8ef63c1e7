import { randomBytes } from "node:crypto";
import { type Job, UnrecoverableError } from "bullmq";
import type { ImportAttempt } from "../pipeline/files/import-dropped-file.ts";
import type { ImportOutcome, ImportSummary } from "../pipeline/files/import-outcome.ts";
import type { DroppedFile } from "../pipeline/files/settle-import.ts";
import { delayJob } from "./delay-job.ts";
import type { ImportJobData } from "./queues.ts";

export type { ImportProgress, ImportSummary } from "../pipeline/files/import-outcome.ts";

/**
 * The dropped-file use case, bound once to its deps at the root (use-cases.ts): one attempt at a file,
 * its outcome out; `jobId` names the queue's job in its log.
 */
export type ImportFile = (
  file: DroppedFile,
  attempt: ImportAttempt,
  jobId: string | undefined,
) => Promise<ImportOutcome>;

/** The BullMQ processor of import jobs: the dropped-file use case, its outcome mapped to the job's fate. */
export function createImportProcessor(importFile: ImportFile, o: { pausedRetryMs?: number | undefined }) {
  return async function processImport(
    job: Job<ImportJobData>,
    token?: string,
    signal?: AbortSignal,
  ): Promise<ImportSummary> {
    const { data } = job;
    const outcome = await importFile(
      { ...data, admittedAt: job.timestamp },
      {
        progress: job.progress,
        saveProgress: (p) => job.updateProgress(p),
        owner: `${job.id}#${job.attemptsStarted}-${randomBytes(4).toString("hex")}`,
        attemptsStarted: job.attemptsStarted,
        last: job.attemptsMade + 1 >= (job.opts.attempts ?? 1),
        canWait: token !== undefined,
        lockLost: signal,
      },
      job.id,
    );
    return fateOf(outcome, job, token, o.pausedRetryMs ?? 5_000);
  };
}

/** The job's fate, decided once: completed, delayed (not an attempt), retried, or failed for good. */
async function fateOf(
  outcome: ImportOutcome,
  job: Job<ImportJobData>,
  token: string | undefined,
  pausedRetryMs: number,
): Promise<ImportSummary> {
  switch (outcome.kind) {
    case "imported":
    case "settled-earlier":
      return outcome.summary;
    case "paused":
      return delayJob(job, token, Date.now() + pausedRetryMs, new Error(`job ${job.data.job} is paused`));
    case "stopping":
      // The checkpoint is saved; the job waits for the next worker, not counted as failed.
      return delayJob(job, token, Date.now());
    case "rejected":
    case "gone":
      throw new UnrecoverableError(outcome.reason);
    case "retry-later":
      throw outcome.error;
  }
}
