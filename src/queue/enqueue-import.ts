import type { AdmittedFile } from "../inbox/admit-file.ts";
import { importJobId } from "./job-ids.ts";
import type { Queues } from "./queues.ts";

/** Enqueues a file's import; the id is per content and generation, so enqueueing again is a no-op. */
export async function enqueueImport(queues: Queues, file: AdmittedFile, gen: number) {
  const job = await queues.imports.add(
    `${file.job}/${file.original}`,
    { ...file, gen },
    { jobId: importJobId(file.job, file.sha256, gen) },
  );
  return job.id;
}
