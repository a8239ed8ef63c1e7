import { Command } from "commander";
import { createCampaignStore } from "../../pipeline/results/campaign-store.ts";
import { summarize } from "../../pipeline/results/campaign-totals.ts";
import { kindOf } from "../../pipeline/results/model.ts";
import { writeResultsCsv } from "../../sinks/file-sink.ts";
import { summaryLines } from "../../sinks/summary-text.ts";
import { CliError } from "../cli-error.ts";
import { withRedis } from "../with-redis.ts";

export function reportCommand(): Command {
  return new Command("report")
    .description("Print a campaign's summary from what the worker has polled")
    .argument("<campaign>", "campaign id")
    .option("--json", "print the summary as one JSON object")
    .option("--csv <file>", "also write the per-contact results CSV")
    .action(async (id: string, o) => {
      await withRedis(async ({ redis, keys, settings }) => {
        const store = createCampaignStore(redis, keys);
        const stored = await store.get(id);
        if (!stored)
          throw new CliError(
            `no campaign ${id} is known to this worker (prefix ${settings.prefix.value})`,
            1,
          );
        const summary = summarize(
          stored.info,
          stored.totals,
          stored.version,
          kindOf(stored.info.state),
          Date.now(),
        );
        if (o.csv) {
          const rows = await writeResultsCsv(o.csv, store.allRecords(id));
          if (!o.json) console.log(`results: ${rows} rows written to ${o.csv}`);
        }
        if (o.json) process.stdout.write(`${JSON.stringify(summary)}\n`);
        else for (const line of summaryLines(summary)) console.log(line);
      });
    });
}
