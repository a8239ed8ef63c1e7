import { randomBytes } from "node:crypto";
import { type Job, UnrecoverableError } from "bullmq";
import { importDroppedFile } from "../pipeline/files/import-dropped-file.ts";
import type { ImportOutcome, ImportSummary } from "../pipeline/files/import-outcome.ts";
import { delayJob } from "./delay-job.ts";
import { applyIntents } from "./intents.ts";
import type { ImportJobData } from "./queues.ts";
import { jobOf, type WorkDeps } from "./work-deps.ts";

export type { ImportProgress, ImportSummary } from "../pipeline/files/import-outcome.ts";

/** The BullMQ processor of import jobs: the dropped-file use case, its outcome mapped to the job's fate. */
export function createImportProcessor(d: WorkDeps) {
  const deps = {
    ...d,
    request: (intents: Parameters<typeof applyIntents>[0]) => applyIntents(intents, d),
  };
  return async function processImport(
    job: Job<ImportJobData>,
    token?: string,
    signal?: AbortSignal,
  ): Promise<ImportSummary> {
    const { data } = job;
    const outcome = await importDroppedFile(
      jobOf(d, data.job),
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
      { ...deps, logger: d.logger.child({ jobId: job.id }) },
    );
    return fateOf(outcome, job, token, d);
  };
}

/** The job's fate, decided once: completed, delayed (not an attempt), retried, or failed for good. */
async function fateOf(
  outcome: ImportOutcome,
  job: Job<ImportJobData>,
  token: string | undefined,
  d: Pick<WorkDeps, "pausedRetryMs">,
): Promise<ImportSummary> {
  switch (outcome.kind) {
    case "imported":
    case "settled-earlier":
      return outcome.summary;
    case "paused":
      return delayJob(
        job,
        token,
        Date.now() + (d.pausedRetryMs ?? 5_000),
        new Error(`job ${job.data.job} is paused`),
      );
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
