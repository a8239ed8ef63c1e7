import { Command } from "commander";
import { jobsDir, resourcesDir } from "../../config/folders.ts";
import { formatProblem } from "../../config/job-problems.ts";
import { loadJobs, unsetSinkVariables } from "../../config/load-jobs.ts";
import { loadResources } from "../../config/load-resources.ts";
import { resolveSettings } from "../../config/settings.ts";
import { type BucketClient, createBucketClient } from "../../inbox/bucket/bucket-client.ts";
import { bucketInboxProblem } from "../../inbox/bucket/check-bucket.ts";
import { callingWarnings } from "../../pipeline/calling/rule-warnings.ts";
import { assistantCatalog } from "../../pipeline/resources/assistant-catalog.ts";
import { checkDisclosures, type DisclosureFinding } from "../../pipeline/resources/disclosure-check.ts";
import { missingServiceRefs } from "../../pipeline/resources/service-refs.ts";
import { expiredText, isExpired } from "../../pipeline/stores/dnc/list-facts.ts";
import { serviceClient } from "../service-client.ts";
import { withRedis } from "../with-redis.ts";

/** Do-not-call lists past their expiry, when the daemon's Redis answers (else nothing: offline). */
async function expiredLists(): Promise<{ kind: "expired_list"; source: string; message: string }[]> {
  try {
    return await withRedis(async ({ stores }) => {
      const now = Date.now();
      const lists = await stores.suppression.lists.lists();
      return lists
        .filter((l) => isExpired(l, now))
        .map((l) => ({ kind: "expired_list" as const, source: l.source, message: expiredText(l, now) }));
    });
  } catch {
    return [];
  }
}

/** Bucket inboxes that don't list now (out of reach, not there, no right): a problem each. */
async function bucketProblems(loaded: Awaited<ReturnType<typeof loadJobs>>) {
  let client: BucketClient | undefined;
  const lazily = () => {
    client ??= createBucketClient(resolveSettings(process.env).bucket.value);
    return client;
  };
  const problems = [];
  for (const { file, job } of loaded.jobs) {
    const problem = await bucketInboxProblem(lazily, job.inbox);
    if (problem) problems.push({ file, path: "inbox", message: problem });
  }
  client?.close();
  return problems;
}

const findingLine = (f: DisclosureFinding) =>
  `${f.kind === "missing" ? "warn" : "note"} ${f.file}: ${f.message}`;

export function jobsCommand(): Command {
  const jobs = new Command("jobs").description("Job definitions (jobs/*.yaml)");
  jobs
    .command("check")
    .description(
      "Validate every job definition and sink (their variables set too); print each error with its file, line and path; name an assistant the service does not have (per variant, when it answers); warn of an assistant that doesn't say the call is automated or AI",
    )
    .argument("[dir]", "folder of job definitions (default: VCW_JOBS_DIR, else ./jobs)")
    .option("--json", "print one JSON object: the jobs loaded and every problem")
    .action(async (given: string | undefined, o: { json?: boolean }) => {
      const dir = jobsDir(given);
      const loaded = await loadJobs(dir);
      const catalog = assistantCatalog({
        resources: () => loadResources(resourcesDir()),
        client: await serviceClient(),
      });
      const problems = [
        ...loaded.problems,
        ...unsetSinkVariables(loaded, process.env),
        // An assistant the service does not have, per variant: its campaigns would fail.
        ...(await missingServiceRefs(loaded.jobs, catalog)),
        ...(await bucketProblems(loaded)),
      ];
      const findings = await checkDisclosures(loaded.jobs, catalog);
      const expired = await expiredLists();
      const spellings = loaded.warnings.map((w) => ({
        file: w.file,
        job: loaded.declared[w.file],
        kind: w.kind,
        message: formatProblem(w),
      }));
      const calling = loaded.jobs.flatMap(({ file, job }) =>
        callingWarnings(job).map((message) => ({
          file,
          job: job.name,
          kind: "calling_hours" as const,
          message,
        })),
      );
      if (problems.length > 0 || loaded.jobs.length === 0) process.exitCode = 1;
      const service = loaded.service.file;
      const serviceOk = service !== undefined && !loaded.problems.some((p) => p.file === service);
      if (o.json) {
        const jobs = loaded.jobs.map(({ file, job }) => ({ file, name: job.name, inbox: job.inbox }));
        const warnings = [
          ...findings.map(({ file, job, kind, message }) => ({ file, job, kind, message })),
          ...calling,
          ...spellings,
          ...expired,
        ];
        process.stdout.write(
          `${JSON.stringify({ jobs, ...(serviceOk ? { service } : {}), problems: problems.map(formatProblem), ...(warnings.length ? { warnings } : {}) })}\n`,
        );
        return;
      }
      if (serviceOk) console.log(`ok   ${service} (service profile)`);
      for (const { file, job } of loaded.jobs)
        console.log(
          `ok   ${file} (${job.name}: ${job.inbox} -> segment ${"id" in job.segment ? job.segment.id : `"${job.segment.name}"`})`,
        );
      for (const problem of problems) console.error(`fail ${formatProblem(problem)}`);
      for (const finding of findings) console.error(findingLine(finding));
      for (const w of calling) console.error(`warn ${w.file}: ${w.message}`);
      for (const w of spellings) console.error(`warn ${w.message}`);
      for (const list of expired) console.error(`warn ${list.message}`);
      if (loaded.jobs.length === 0 && problems.length === 0)
        console.error(`no job definitions (*.yaml) in ${dir}`);
    });
  return jobs;
}
