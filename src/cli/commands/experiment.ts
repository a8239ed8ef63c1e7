import { Command } from "commander";
import type { JobDefinition } from "../../config/job-definition.ts";
import { findJob, loadJobs } from "../../config/load-jobs.ts";
import { retentionMsOf } from "../../config/settings.ts";
import { experimentLines } from "../../pipeline/reports/experiment-text.ts";
import { gatherExperiment } from "../../pipeline/reports/gather-report.ts";
import { createCampaignStore } from "../../pipeline/results/campaign-store.ts";
import { operatorDecisions } from "../../pipeline/stores/experiment-actions.ts";
import { createExperimentStore, type ExperimentDecision } from "../../pipeline/stores/experiment-store.ts";
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
        const report = await gatherExperiment(
          def,
          { store: createCampaignStore(c.redis, c.keys) },
          Date.now(),
          retentionMsOf(c.settings),
        );
        const decisions = await createExperimentStore(c.redis, c.keys).decisions(def.name);
        if (o.json) {
          const { variants, experiment } = report;
          process.stdout.write(`${JSON.stringify({ job: def.name, variants, experiment, decisions })}\n`);
          return;
        }
        const lines = [`Job ${def.name}: ${report.period.label}`, ...experimentLines(report).slice(1), ""];
        lines.push(
          decisions.length === 0 ? "Decisions: none (every variant gets new contacts)" : "Decisions:",
        );
        for (const d of decisions) lines.push(`- ${decisionLine(d)}`);
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
          const store = createExperimentStore(c.redis, c.keys);
          const names = def.campaign!.variants!.map((v) => v.name);
          const asked = operatorDecisions(
            action,
            variant,
            names,
            await store.decisions(def.name),
            Date.now(),
          );
          if ("error" in asked) throw new CliError(asked.error, 1);
          for (const d of await store.decide(def.name, asked)) console.log(decisionLine(d));
        }),
      );
  return command;
}

/** A decision for a person: what, about which variant, by whom, when and why. */
export const decisionLine = (d: ExperimentDecision) =>
  `${d.variant}: ${d.action === "stop" ? "stopped" : "promoted"} by the ${d.by} at ${new Date(d.at).toISOString()}: ${d.reason}`;

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
