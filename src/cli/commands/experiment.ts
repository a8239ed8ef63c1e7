import { userInfo } from "node:os";
import { Command } from "commander";
import type { JobDefinition } from "../../config/job-definition.ts";
import { zoneOf } from "../../config/job-zone.ts";
import { findJob, loadJobs } from "../../config/load-jobs.ts";
import { logLevelOf } from "../../config/log-level.ts";
import { experimentId } from "../../config/variant-definition.ts";
import { createLogger } from "../../daemon/logger.ts";
import { previewFile } from "../../pipeline/calling/preview.ts";
import { experimentPlan, planLines } from "../../pipeline/reports/experiment-plan.ts";
import { experimentSection } from "../../pipeline/reports/experiment-section.ts";
import { experimentLines } from "../../pipeline/reports/experiment-text.ts";
import { METRIC_WORDS } from "../../pipeline/reports/experiment-verdict.ts";
import { gatherExperiment } from "../../pipeline/reports/gather-experiment.ts";
import { createActionContext } from "../../queue/operator/action-context.ts";
import { decisionLine } from "../../queue/operator/experiment-action.ts";
import { runAction } from "../../queue/operator/run-action.ts";
import { closeQueues, createQueues } from "../../queue/queues.ts";
import { queueReportSources } from "../../queue/read-model/report-sources.ts";
import { CliError } from "../cli-error.ts";
import { type RedisContext, withRedis } from "../with-redis.ts";

/** `vcw experiment status|stop|promote JOB`: a job's experiment (campaign.variants) and the decisions about it. */
export function experimentCommand(): Command {
  const command = new Command("experiment").description(
    "A job's experiment (campaign.variants): its figures by variant and decisions; stop a variant, or promote one",
  );
  command
    .command("status")
    .description(
      "Each variant's figures over the experiment (its kept campaigns), the comparison in words, the sample ratio checks, and the decisions",
    )
    .argument("<job>", "the job")
    .option("--json", "print { job, variants, experiment, decisions } as one JSON object")
    .action((job: string, o: { json?: boolean }) =>
      withExperiment(job, async (c, def) => {
        const { experiments } = c.stores;
        const queues = createQueues({ connection: c.redis, keys: c.keys });
        const gathered = (await gatherExperiment(
          def,
          {
            store: c.stores.store,
            experiments,
            campaignsNotMade: queueReportSources(queues).campaignsNotMade,
          },
          Date.now() + 1,
        ).finally(() => closeQueues(queues)))!;
        const report = experimentSection(gathered.figures, gathered.setup);
        const decisions = await experiments.decisions(experimentId(def.name, def.campaign?.experiment));
        if (o.json) {
          const { variants, experiment } = report;
          process.stdout.write(`${JSON.stringify({ job: def.name, variants, experiment, decisions })}\n`);
          return;
        }
        const lines = [`Job ${def.name}: the experiment so far`, ...experimentLines(report).slice(1), ""];
        lines.push(
          decisions.length === 0 ? "Decisions: none (every variant is given new contacts)" : "Decisions:",
        );
        for (const d of decisions) lines.push(`- ${decisionLine(d, zoneOf(def))}`);
        process.stdout.write(`${lines.join("\n")}\n`);
      }),
    );
  command
    .command("plan")
    .description(
      "Before the start: what the experiment can find for a file's size and the shares (the minimum detectable effect at 80% power, always-valid and fixed-horizon), and the contacts a stated effect needs",
    )
    .argument("<job>", "the job")
    .option("--file <file>", "size it for this contact file's callable contacts, as vcw preview plans them")
    .option("--contacts <n>", "size it for this many contacts (default: campaign.experiment.plannedContacts)")
    .option(
      "--base-rate <rate>",
      "the first variant's expected rate on the metric, e.g. 0.3 or 30% (default 30%, said so)",
    )
    .option(
      "--effect <points>",
      "a difference to find, in points, e.g. 5 for 30% to 35%: the contacts it needs",
    )
    .option("--json", "print the plan as one JSON object")
    .action(
      (
        job: string,
        o: { file?: string; contacts?: string; baseRate?: string; effect?: string; json?: boolean },
      ) =>
        withExperiment(job, async (c, def) => {
          const settings = def.campaign?.experiment;
          const plannedContacts = settings?.plannedContacts ?? 5000;
          const baseRate = o.baseRate === undefined ? 0.3 : rateOption(o.baseRate, "--base-rate");
          const effect = o.effect === undefined ? undefined : pointsOption(o.effect);
          const contacts = o.file
            ? await callableContacts(c, def, o.file)
            : o.contacts !== undefined
              ? countOption(o.contacts)
              : plannedContacts;
          const plan = experimentPlan(def.campaign!.variants!, {
            contacts,
            baseRate,
            plannedContacts,
            effect,
          });
          if (o.json) {
            process.stdout.write(
              `${JSON.stringify({ job: def.name, metric: settings?.metric ?? "reached", ...plan })}\n`,
            );
            return;
          }
          const from = o.file
            ? `${o.file}'s callable contacts`
            : o.contacts !== undefined
              ? "--contacts"
              : "the planned contacts";
          const lines = [
            `Job ${def.name}: experiment plan on ${METRIC_WORDS[settings?.metric ?? "reached"]}, for ${from}${o.baseRate === undefined ? " (base rate 30% assumed: give --base-rate)" : ""}`,
            ...planLines(plan),
          ];
          process.stdout.write(`${lines.join("\n")}\n`);
        }),
    );
  for (const action of ["stop", "promote"] as const)
    command
      .command(action)
      .description(
        action === "stop"
          ? "Give a variant no new contacts (those it has keep it: their follow-ups too)"
          : "Give a variant every new contact: the others are stopped",
      )
      .argument("<job>", "the job")
      .argument("<variant>", "the variant's name")
      .action((job: string, variant: string) =>
        withExperiment(job, async (c, def) => {
          const queues = createQueues({ connection: c.redis, keys: c.keys });
          try {
            const logger = createLogger({ level: logLevelOf(process.env, "warn") });
            const ctx = createActionContext({
              stores: c.stores,
              queues,
              jobs: () => new Map([[def.name, def]]),
              logger,
            });
            const kind = action === "stop" ? ("experiment-stop" as const) : ("experiment-promote" as const);
            const result = await runAction(
              ctx,
              { kind, job: def.name, variant },
              `cli ${userInfo().username}`,
            );
            if (!result.ok) throw new CliError(result.message, 1);
            console.log(result.message);
          } finally {
            await closeQueues(queues);
          }
        }),
      );
  return command;
}

/** Runs with the job's definition, which must have variants. */
function withExperiment(
  job: string,
  run: (c: RedisContext, def: JobDefinition) => Promise<void>,
): Promise<void> {
  return withRedis(async (c) => {
    const found = findJob(await loadJobs(c.settings.jobsDir.value), job, c.settings.jobsDir.value);
    if ("error" in found) throw new CliError(found.error, 2);
    if (!found.job.campaign?.variants)
      throw new CliError(`job ${job} runs no experiment: it names no campaign.variants`, 2);
    await run(c, found.job);
  });
}

/** A rate option: 0.3 or 30%, strictly between 0 and 1. */
function rateOption(text: string, name: string): number {
  const x = text.endsWith("%") ? Number(text.slice(0, -1)) / 100 : Number(text);
  if (!(x > 0 && x < 1))
    throw new CliError(`${name} ${text} is not a rate between 0 and 1 (such as 0.3 or 30%)`, 2);
  return x;
}

/** A difference in points: 5 is 30% to 35%. */
function pointsOption(text: string): number {
  const x = Number(text);
  if (!(x > 0 && x < 100))
    throw new CliError(`--effect ${text} is not a difference in points (such as 5, for 30% to 35%)`, 2);
  return x / 100;
}

function countOption(text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 2)
    throw new CliError(`--contacts ${text} is not a whole number of contacts (2 or more)`, 2);
  return n;
}

/** The contacts a file's campaigns would call if dropped now, as vcw preview plans them (read only). */
async function callableContacts(c: RedisContext, def: JobDefinition, file: string): Promise<number> {
  const { previewSources } = await import("./preview.ts");
  const report = await previewFile(def, file, previewSources(c.stores, def), Date.now());
  return report.campaigns.reduce((n, x) => n + x.contacts, 0);
}
