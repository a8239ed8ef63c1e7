import type { JobDefinition } from "../../config/job-definition.ts";
import { assistantsOf } from "../../config/variant-definition.ts";
import type { AssistantCatalog } from "./assistant-catalog.ts";

/** An assistant a job names that the service does not have: the job's campaigns would fail. */
export interface RefProblem {
  file: string;
  job: string;
  /** The job's field that names it: `campaign.assistant`, `campaign.variants[1].assistant`. */
  path: string;
  /** The variant whose campaigns would fail, when the job has variants. */
  variant?: string;
  line?: number | undefined;
  message: string;
}

/**
 * The assistants each job names by id or name (per variant) that the service, when it answers, does
 * not have, each named by its field and line. A dialer can't be looked up (no operation lists or
 * reads dialers: docs/spec-gaps.md), nor an assistant resource before `vcw apply`: those are not here.
 */
export async function missingServiceRefs(
  jobs: readonly { file: string; job: JobDefinition; lineOf?: (path: string) => number | undefined }[],
  lookup: AssistantCatalog,
): Promise<RefProblem[]> {
  const problems: RefProblem[] = [];
  for (const { file, job, lineOf } of jobs)
    for (const { ref, field, variant } of job.campaign ? assistantsOf(job.campaign) : []) {
      if ("resource" in ref) continue;
      const found = await lookup(ref);
      if (!("missing" in found)) continue;
      const line = lineOf?.(field.replace(/\[(\d+)\]/g, ".$1"));
      problems.push({
        file,
        job: job.name,
        path: field,
        ...(variant ? { variant } : {}),
        ...(line ? { line } : {}),
        message: found.missing,
      });
    }
  return problems;
}
