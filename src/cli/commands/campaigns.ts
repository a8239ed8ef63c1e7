import { Command, Option } from "commander";
import { findJob, loadJobs } from "../../config/load-jobs.ts";
import {
  CAMPAIGN_STATES,
  type CampaignListing,
  campaignListing,
  listingLine,
} from "../../pipeline/reports/campaign-list.ts";
import { CliError } from "../cli-error.ts";
import { withRedis } from "../with-redis.ts";

/** `vcw campaigns`: the kept campaigns with their zone, scheduled start, state and counts. */
export function campaignsCommand(): Command {
  return new Command("campaigns")
    .description("List the campaigns the worker keeps: id, name, zone, scheduled start, state and counts")
    .option("--job <name>", "only this job's campaigns")
    .addOption(new Option("--state <state>", "only campaigns in this state").choices(CAMPAIGN_STATES))
    .option("--json", "print one JSON array")
    .action(async (o: { job?: string; state?: string; json?: boolean }) => {
      await withRedis(async ({ stores, settings }) => {
        const loaded = await loadJobs(settings.jobsDir.value);
        const defs = new Map(loaded.jobs.map(({ job }) => [job.name, job]));
        const { store } = stores;
        // A job whose file is gone still has its campaigns: listed (and asked for) by the index.
        const withCampaigns = await store.jobsWithCampaigns();
        const asked = o.job ? findJob(loaded, o.job, settings.jobsDir.value) : undefined;
        if (asked && "error" in asked && !withCampaigns.includes(o.job!)) throw new CliError(asked.error, 2);
        const now = Date.now();
        const listed: CampaignListing[] = [];
        for (const name of o.job ? [o.job] : new Set([...defs.keys(), ...withCampaigns])) {
          for (const id of (await store.allOf(name)).sort()) {
            const s = await store.get(id);
            if (!s) continue;
            const c = campaignListing(s, defs.get(name), now);
            if (!o.state || c.state === o.state) listed.push(c);
          }
        }
        listed.sort(
          (a, b) => b.scheduledStart.at.localeCompare(a.scheduledStart.at) || a.id.localeCompare(b.id),
        );
        if (o.json) process.stdout.write(`${JSON.stringify(listed)}\n`);
        else if (listed.length === 0) console.log("no campaign");
        else for (const c of listed) console.log(listingLine(c));
      });
    });
}
