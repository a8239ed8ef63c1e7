import { Command } from "commander";
import { findJob, loadJobs } from "../../config/load-jobs.ts";
import { summarize } from "../../pipeline/model/campaign-totals.ts";
import { kindOf } from "../../pipeline/model/results.ts";
import type { CampaignStore } from "../../pipeline/stores/campaign-store.ts";
import { closeQueues, createQueues } from "../../queue/queues.ts";
import { queueReportSources } from "../../queue/read-model/report-sources.ts";
import { writeResultsCsv } from "../../sinks/file/results-csv.ts";
import { summaryLines } from "../../sinks/summary-text.ts";
import { CliError } from "../cli-error.ts";
import { withRedis } from "../with-redis.ts";
import { printPeriodReport } from "./report-period.ts";

/** A campaign by id, else by its name among the jobs' kept campaigns. */
async function findCampaign(store: CampaignStore, jobs: readonly string[], idOrName: string) {
  const byId = await store.get(idOrName);
  if (byId) return byId;
  for (const job of jobs)
    for (const id of await store.allOf(job)) {
      const s = await store.get(id);
      if (s?.info.name === idOrName) return s;
    }
  return undefined;
}

export function reportCommand(): Command {
  return new Command("report")
    .description(
      "Print a campaign's summary (by id or name), or with no campaign the report of a period: totals, reach, change from the period before",
    )
    .argument("[campaign]", "campaign id or name")
    .option("--json", "print the summary, or the report model, as one JSON object")
    .option("--csv <file>", "with a campaign: also write the per-contact results CSV")
    .option("--job <name>", "the report of this job (default: every job)")
    .option("--since <duration>", "the report of the last 90m, 24h, 7d, 2w... (default 24h)")
    .option("--from <iso>", "the report from this ISO date-time")
    .option("--to <iso>", "... to this one (default: now)")
    .option("--html <file>", "also write the report's page (self-contained HTML)")
    .action(async (idOrName: string | undefined, o) => {
      await withRedis(async ({ redis, keys, settings, inboxes, stores }) => {
        const { store } = stores;
        const loaded = await loadJobs(settings.jobsDir.value);
        const asked = o.job ? findJob(loaded, o.job, settings.jobsDir.value) : undefined;
        if (asked && "error" in asked) throw new CliError(asked.error, 2);
        const defs = new Map(loaded.jobs.map(({ job }) => [job.name, job]));
        if (idOrName === undefined) {
          const queues = createQueues({ connection: redis, keys });
          try {
            const sources = {
              store,
              inboxes,
              experiments: stores.experiments,
              publicUrl: settings.publicUrl.value,
              ...queueReportSources(queues),
            };
            return await printPeriodReport(o, defs, sources);
          } finally {
            await closeQueues(queues);
          }
        }
        const stored = await findCampaign(store, [...defs.keys()], idOrName);
        if (!stored)
          throw new CliError(
            `no campaign ${idOrName} is known to this worker (prefix ${settings.prefix.value})`,
            1,
          );
        const id = stored.info.id;
        const summary = {
          ...summarize(stored.info, stored.totals, stored.version, kindOf(stored.info.state), Date.now()),
          audit: {
            calls: stored.totals.contacts,
            records: await stores.audit.countOf(`campaign:${id}`),
          },
        };
        if (o.csv) {
          const rows = await writeResultsCsv(o.csv, store.allRecords(id), {
            callerNumber: stored.info.dialerNumber,
          });
          if (!o.json) console.log(`results: ${rows} rows written to ${o.csv}`);
        }
        if (o.json) process.stdout.write(`${JSON.stringify(summary)}\n`);
        else
          for (const line of summaryLines(summary, defs.get(stored.info.job)?.polling.statuses.reached))
            console.log(line);
      });
    });
}
