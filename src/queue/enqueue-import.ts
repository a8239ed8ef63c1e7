import type { AdmittedFile } from "../inbox/admit-file.ts";
import { inSpan } from "../telemetry/span.ts";
import { importJobId } from "./job-ids.ts";
import type { Queues } from "./queues.ts";

/**
 * Enqueues a file's import; the id is per content and generation, so enqueueing again is a no-op.
 * A failed job of a file still in processing/ (it could not be settled, e.g. on a full disk) is
 * sent back to the queue: settling is retried until it succeeds.
 */
export function enqueueImport(queues: Queues, file: AdmittedFile, gen: number) {
  // With traces on, the trace of a dropped file starts here: its import, campaign, polls, deliveries.
  const attributes = { "vcw.job": file.job, "vcw.file.sha256": file.sha256, "vcw.file.generation": gen };
  return inSpan("vcw.file", { attributes }, async () => {
    const jobId = importJobId(file.job, file.sha256, gen);
    const job = await queues.imports.add(`${file.job}/${file.original}`, { ...file, gen }, { jobId });
    if (await job.isFailed()) await job.retry("failed");
    return job.id;
  });
}
