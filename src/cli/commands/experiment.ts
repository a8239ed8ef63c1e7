import { userInfo } from "node:os";
import { Command } from "commander";
import type { JobDefinition } from "../../config/job-definition.ts";
import { zoneOf } from "../../config/job-zone.ts";
import { findJob, loadJobs } from "../../config/load-jobs.ts";
import { retentionMsOf } from "../../config/settings.ts";
import { createLogger } from "../../daemon/logger.ts";
import { experimentLines } from "../../pipeline/reports/experiment-text.ts";
import { gatherExperiment } from "../../pipeline/reports/gather-report.ts";
import { createCampaignStore } from "../../pipeline/results/campaign-store.ts";
import { createExperimentStore } from "../../pipeline/stores/experiment-store.ts";
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
      "Each variant's figures over the job's kept campaigns, the comparison in words, and the decisions",
    )
    .argument("<job>", "the job")
    .option("--json", "print { job, variants, experiment, decisions } as one JSON object")
    .action((job: string, o: { json?: boolean }) =>
      withExperiment(job, async (c, def) => {
        const queues = createQueues({ connection: c.redis, keys: c.keys });
        const report = await gatherExperiment(
          def,
          { store: createCampaignStore(c.redis, c.keys), ...queueReportSources(queues) },
          Date.now(),
          retentionMsOf(c.settings),
        ).finally(() => closeQueues(queues));
        const decisions = await createExperimentStore(c.redis, c.keys).decisions(def.name);
        if (o.json) {
          const { variants, experiment } = report;
          process.stdout.write(`${JSON.stringify({ job: def.name, variants, experiment, decisions })}\n`);
          return;
        }
        const lines = [`Job ${def.name}: ${report.period.label}`, ...experimentLines(report).slice(1), ""];
        lines.push(
          decisions.length === 0 ? "Decisions: none (every variant is given new contacts)" : "Decisions:",
        );
        for (const d of decisions) lines.push(`- ${decisionLine(d, zoneOf(def))}`);
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
            const logger = createLogger({ level: process.env.LOG_LEVEL ?? "warn" });
            const ctx = createActionContext({ ...c, queues, jobs: () => new Map([[def.name, def]]), logger });
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
