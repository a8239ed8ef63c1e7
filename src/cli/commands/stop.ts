import { userInfo } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { Command } from "commander";
import { loadJobs } from "../../config/load-jobs.ts";
import { logLevelOf } from "../../config/log-level.ts";
import { createLogger } from "../../daemon/logger.ts";
import { stopWords } from "../../pipeline/campaign/stopping/stop-summary.ts";
import type { CampaignStop, StopStore } from "../../pipeline/stores/stop-store.ts";
import type { ActionResult } from "../../queue/operator/action.ts";
import { createActionContext } from "../../queue/operator/action-context.ts";
import { runAction } from "../../queue/operator/run-action.ts";
import { closeQueues, createQueues } from "../../queue/queues.ts";
import { CliError } from "../cli-error.ts";
import { nonNegative } from "../options.ts";
import { withRedis } from "../with-redis.ts";

interface StopOptions {
  json?: boolean;
  wait: number;
}

/**
 * `vcw stop CAMPAIGN`: a started campaign calls nobody more. The worker that polls it next takes
 * every contact not yet called out of its own segment (`contacts.delete`); this command waits for
 * that (`--wait`) and says how many. A campaign not yet created is canceled, as `vcw cancel` does.
 * Exit 1 when refused (unknown, ended) or when no worker did it in time.
 */
export function stopCommand(): Command {
  return new Command("stop")
    .description(
      "Stop a started campaign: every contact it has not called yet is taken out of its own segment and never called by it (one not yet created is canceled). Exits 1 when it can't",
    )
    .argument("<campaign>", "a campaign id (vcw status lists them), or a file name: each of its campaigns")
    .option("--wait <seconds>", "how long to wait for a worker to carry it out", nonNegative, 60)
    .option("--json", "print the result as one JSON object")
    .action((campaign: string, o: StopOptions) => runStop(campaign, o));
}

function runStop(campaign: string, o: StopOptions): Promise<void> {
  return withRedis(async ({ redis, keys, settings, stores }) => {
    const queues = createQueues({ connection: redis, keys });
    try {
      const { jobs } = await loadJobs(settings.jobsDir.value);
      const byName = new Map(jobs.map(({ job }) => [job.name, job]));
      const logger = createLogger({ level: logLevelOf(process.env, "warn") });
      const ctx = createActionContext({ stores, queues, jobs: () => byName, logger });
      const asked = await runAction(ctx, { kind: "stop", campaign }, `cli ${userInfo().username}`);
      const { stops } = ctx;
      // Every campaign a worker stops for this request, or for another one at the same time: waited
      // for, so each command says what was done (a canceled or ended one answers at once).
      const ids = asked.ok ? (asked.stopping ?? []) : [];
      const done = new Map<string, CampaignStop | undefined>();
      const deadline = Date.now() + o.wait * 1000;
      for (const id of ids) done.set(id, await waitForStop(stops, id, deadline));
      const single = ids.length === 1 ? done.get(ids[0]!) : await stops.get(campaign);
      const result = outcomeOf(asked, done, o.wait);
      const action = { kind: "stop", campaign };
      const stopsJson = ids.length > 1 ? { stops: Object.fromEntries(done) } : {};
      if (o.json)
        process.stdout.write(
          `${JSON.stringify({ action, ...result, ...(single ? { stop: single } : {}), ...stopsJson })}\n`,
        );
      if (!result.ok) throw new CliError(result.message, 1);
      if (!o.json) console.log(result.message);
    } finally {
      await closeQueues(queues);
    }
  });
}

/** The stop a worker recorded for `id`, once it carried out the operator's request (undefined: not by `deadline`). */
async function waitForStop(
  stops: StopStore,
  id: string,
  deadline: number,
): Promise<CampaignStop | undefined> {
  for (;;) {
    const stop = await stops.get(id);
    const pending = await stops.requested(id);
    if (stop?.reasons.includes("operator") && pending === undefined) return stop;
    if (Date.now() >= deadline) return undefined;
    await sleep(250);
  }
}

/** What the command says: what was asked, then what each stop did, or that no worker did it in time. */
function outcomeOf(
  asked: ActionResult,
  done: Map<string, CampaignStop | undefined>,
  waitS: number,
): ActionResult {
  if (!asked.ok || done.size === 0) return asked;
  const lines = [...done].map(([id, stop]) =>
    stop
      ? `${done.size > 1 ? `${id}: ` : ""}${stopWords(stop.withdrawn, stop.flagged)}`
      : `${done.size > 1 ? `${id}: ` : ""}no worker carried it out within ${waitS} s: is a daemon running? (it will when one polls the campaign)`,
  );
  const late = [...done.values()].some((stop) => stop === undefined);
  return { ok: !late, count: late ? 0 : asked.count, message: `${asked.message}\n${lines.join("\n")}` };
}
