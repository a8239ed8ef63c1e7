import { Command } from "commander";
import { dialersOf, poolDialerName } from "../../config/dialer-pool-definition.ts";
import { resourcesDir } from "../../config/folders.ts";
import { formatProblem } from "../../config/job-problems.ts";
import { loadResources } from "../../config/load-resources.ts";
import { assistantsOf } from "../../config/variant-definition.ts";
import { counted } from "../../lib/plural.ts";
import { type ApplyReport, applyResources } from "../../pipeline/resources/apply.ts";
import { CliError } from "../cli-error.ts";
import { formatApplyReport } from "./apply-report.ts";
import { withServices } from "./resource-services.ts";

const collect = (value: string, previous: string[]) => [...previous, value];

/** `--adopt main-line=ID` (or `=none`): what became of a dialer create whose answer was lost. */
function adoptions(values: string[]): Map<string, string | null> {
  return new Map(
    values.map((v) => {
      const m = /^([a-z0-9][a-z0-9-]*)=(.+)$/.exec(v);
      if (!m) throw new CliError(`--adopt expects DIALER=ID or DIALER=none, got "${v}"`);
      return [m[1]!, m[2] === "none" ? null : m[2]!];
    }),
  );
}

export function applyCommand(): Command {
  return new Command("apply")
    .description("Apply the assistants, knowledge bases and dialers of resources/*.yaml to the service")
    .option("--dry-run", "print the plan and the drift; change nothing")
    .option("--prune", "delete old versions (and removed resources) that no job and no running campaign uses")
    .option("--json", "print the plan, the drift and what was done as one JSON object")
    .option(
      "--resend-secrets",
      "update every dialer, so secrets rotated in the environment reach the service",
    )
    .option("--dir <dir>", "folder of resource files (default: VCW_RESOURCES_DIR, else ./resources)")
    .option(
      "--adopt <dialer=id>",
      "a dialer whose create's answer was lost: its id, or none to create it again",
      collect,
      [],
    )
    .action(async (o) => {
      const dir = resourcesDir(o.dir);
      const loaded = await loadResources(dir, o.dryRun ? undefined : process.env);
      // A wrong folder must not read as "remove everything".
      const refusal =
        loaded.problems.length > 0
          ? `${counted(loaded.problems.length, "problem")} in ${dir}: nothing applied`
          : loaded.resources.length === 0
            ? `no resources (*.yaml) in ${dir}: nothing applied (give --dir, or VCW_RESOURCES_DIR)`
            : undefined;
      if (refusal) {
        const problems = loaded.problems.map(formatProblem);
        for (const p of problems) console.error(`fail ${p}`);
        // A script reading --json gets an answer on stdout too.
        if (o.json)
          process.stdout.write(`${JSON.stringify({ applied: false, error: refusal, problems }, null, 2)}\n`);
        throw new CliError(refusal, 1);
      }
      const report: ApplyReport = await withServices(async (s) => {
        const jobs = [...s.jobs.values()];
        const names = new Set(loaded.resources.map((r) => `${r.kind}/${r.name}`));
        for (const job of jobs) {
          for (const [kind, ref] of [
            ...(job.campaign ? assistantsOf(job.campaign) : []).map((a) => ["assistant", a.ref] as const),
            ...(job.campaign ? dialersOf(job.campaign) : []).map((d) => ["dialer", d] as const),
          ]) {
            if (ref && "resource" in ref && !names.has(`${kind}/${ref.resource}`))
              console.error(
                `warn job ${job.name} names ${kind} resource "${ref.resource}", which ${dir} does not declare`,
              );
          }
        }
        return applyResources(
          { client: s.client, resources: s.stores.resources, memo: s.stores.memo, store: s.stores.store },
          loaded.resources,
          {
            dryRun: o.dryRun === true,
            prune: o.prune === true,
            jobs,
            env: process.env,
            adopt: adoptions(o.adopt),
            resendSecrets: o.resendSecrets === true,
          },
        );
      });
      // A pool has nothing on the service: checked above, said here so a reader sees it was read.
      const pools = loaded.pools.map((p) => ({ name: p.name, dialers: p.spec.pool.map(poolDialerName) }));
      if (o.json) process.stdout.write(`${JSON.stringify({ ...report, pools }, null, 2)}\n`);
      else {
        for (const p of pools)
          process.stdout.write(
            `pool dialerPool/${p.name} (${p.dialers.join(", ")}): nothing on the service\n`,
          );
        process.stdout.write(formatApplyReport(report));
      }
    });
}
