import { Command } from "commander";
import { Redis } from "ioredis";
import { findRedis } from "../../daemon/redis-connection.ts";
import { resolveSettings } from "../../daemon/settings.ts";
import { createCampaignStore } from "../../pipeline/campaign-store.ts";
import { summarize } from "../../pipeline/campaign-totals.ts";
import { writeResultsCsv } from "../../sinks/file-sink.ts";
import { summaryLines } from "../../sinks/summary-text.ts";
import { CliError } from "../cli-error.ts";

export function reportCommand(): Command {
  return new Command("report")
    .description("Print a campaign's summary from what the worker has polled")
    .argument("<campaign>", "campaign id")
    .option("--json", "print the summary as one JSON object")
    .option("--csv <file>", "also write the per-contact results CSV")
    .action(async (id: string, o) => {
      const settings = resolveSettings();
      const url = await findRedis(settings.redisUrl, settings.home.value);
      if (!url)
        throw new CliError("no Redis is running (start the daemon with `vcw start`, or set REDIS_URL)", 1);
      const redis = new Redis(url, { maxRetriesPerRequest: null });
      try {
        const store = createCampaignStore(redis, settings.prefix.value);
        const stored = await store.get(id);
        if (!stored)
          throw new CliError(
            `no campaign ${id} is known to this worker (prefix ${settings.prefix.value})`,
            1,
          );
        const kind =
          stored.info.state === "finished" ? "final" : stored.info.state === "stuck" ? "stuck" : "progress";
        const summary = summarize(stored.info, stored.totals, stored.version, kind, Date.now());
        if (o.csv) {
          const rows = await writeResultsCsv(o.csv, store.allRecords(id));
          if (!o.json) console.log(`results: ${rows} rows written to ${o.csv}`);
        }
        if (o.json) process.stdout.write(`${JSON.stringify(summary)}\n`);
        else for (const line of summaryLines(summary)) console.log(line);
      } finally {
        await redis.quit();
      }
    });
}
