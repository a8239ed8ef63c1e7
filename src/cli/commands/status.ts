import { Command } from "commander";
import type { JobDefinition } from "../../config/job-definition.ts";
import { loadJobs } from "../../config/load-jobs.ts";
import type { InboxStores } from "../../inbox/inbox-store.ts";
import { counted } from "../../lib/plural.ts";
import type { RedisKeys } from "../../lib/redis-keys.ts";
import { visible } from "../../lib/visible-text.ts";
import { localTime } from "../../lib/zoned-time.ts";
import { describeStop } from "../../pipeline/campaign/stopping/stop-summary.ts";
import type { Stores } from "../../pipeline/open-stores.ts";
import { ageText, expiredText, isExpired } from "../../pipeline/stores/dnc/list-facts.ts";
import { closeQueues, createQueues, type QueueKind, type Queues } from "../../queue/queues.ts";
import { pendingCampaigns } from "../../queue/read-model/campaign-views.ts";
import { campaignsNotMade } from "../../queue/read-model/campaigns-not-made.ts";
import { failedImports, importsInFlight } from "../../queue/read-model/import-files.ts";
import { folderOf } from "../../queue/read-model/job-views.ts";
import { poolNumberLine, poolNumberViews } from "../../queue/read-model/pool-numbers.ts";
import { queueFailures, STATUS_STATES } from "../../queue/read-model/queue-views.ts";
import { sharedRate } from "../../queue/read-model/shared-rate.ts";
import { unpolledJobs, unpolledText } from "../../queue/read-model/unpolled-jobs.ts";
import { type RedisContext, withRedis } from "../with-redis.ts";

/** The queues `vcw status` lists after the import queue. */
const OTHERS: readonly QueueKind[] = ["campaigns", "polls", "followUps", "deliveries"];

type Status = Awaited<ReturnType<typeof readStatus>>;

export function statusCommand(): Command {
  return new Command("status")
    .description("Show the import queue, the files in flight with their progress, and recent failures")
    .option("--json", "print one JSON object")
    .action(async (o) => {
      await withRedis(async ({ redis, keys, settings, where, inboxes, stores }) => {
        const queues = createQueues({ connection: redis, keys });
        try {
          const { jobs } = await loadJobs(settings.jobsDir.value);
          const status = await readStatus({
            redis,
            keys,
            stores,
            queues,
            where,
            inboxes,
            jobs: jobs.map((j) => j.job),
          });
          if (o.json) process.stdout.write(`${JSON.stringify(status)}\n`);
          else printStatus(status);
        } finally {
          await closeQueues(queues);
        }
      });
    });
}

/** Everything `vcw status` shows, from the read model and the stores (its --json, field for field). */
async function readStatus(s: {
  redis: RedisContext["redis"];
  keys: RedisKeys;
  stores: Stores;
  queues: Queues;
  where: string;
  inboxes: InboxStores;
  jobs: JobDefinition[];
}) {
  const { redis, keys, stores, queues } = s;
  const daemons = await stores.presence.list();
  const queuesCounts: Record<string, Record<string, number>> = {};
  for (const name of OTHERS) queuesCounts[name] = await queues[name].getJobCounts(...STATUS_STATES);
  return {
    redis: s.where,
    daemons: daemons.map(({ id: _, stale: __, ticks: ___, loaded: ____, ...d }) => d),
    paused: await stores.controls.paused(),
    pendingCampaigns: (await pendingCampaigns(queues, { n: 51, states: ["waiting", "delayed"] })).map(
      ({ notBefore: _, ...c }) => c,
    ),
    queue: await queues.imports.getJobCounts(...STATUS_STATES),
    rate: (await sharedRate({ redis, keys })) ?? undefined,
    folders: await Promise.all(s.jobs.map((def) => folderOf(def, s.inboxes))),
    files: await importsInFlight(queues, 51),
    failures: await failedImports(queues, 10),
    queues: queuesCounts,
    otherFailures: await queueFailures(queues, OTHERS, 10),
    campaignsNotMade: await campaignsNotMade(queues, 10),
    // By what the running daemons say they tick, not by this folder's jobs.
    unpolledJobs: await unpolledJobs(stores.store, daemons),
    stoppedCampaigns: await stoppedCampaigns(stores.stops, s.jobs),
    doNotCall: await stores.suppression.lists.lists(),
    numbers: await poolNumberViews(
      s.jobs,
      { resources: stores.resources, budgets: stores.budgets, rests: stores.rests },
      Date.now(),
    ),
  };
}

/** Campaigns vcw stopped (issue 20), those that ran past their window first. */
async function stoppedCampaigns(stops: Stores["stops"], jobs: JobDefinition[]) {
  const all = (await Promise.all(jobs.map((job) => stops.latestOf(job.name, 10)))).flat();
  return all.sort(
    (a, b) => Number(b.stop.ranPastWindow) - Number(a.stop.ranPastWindow) || b.stop.at - a.stop.at,
  );
}

const countsLine = (counts: Record<string, number>) =>
  Object.entries(counts)
    .map(([k, v]) => `${v} ${k}`)
    .join(", ");

function printStatus(status: Status): void {
  console.log(`redis ${status.redis}`);
  const now = Date.now();
  for (const l of status.doNotCall)
    console.log(
      isExpired(l, now)
        ? `warning: ${expiredText(l, now)}`
        : `do-not-call list ${l.source}: ${l.numbers} numbers, imported ${ageText(now - l.importedAt)} ago`,
    );
  for (const j of status.unpolledJobs) console.log(`warning: ${unpolledText(j)}`);
  printDaemons(status);
  for (const c of status.stoppedCampaigns) console.log(`  campaign ${c.id}: ${describeStop(c.stop)}`);
  console.log(`import queue: ${countsLine(status.queue)}`);
  if (status.rate !== undefined) console.log(`shared request rate: ${status.rate.toFixed(1)} req/s`);
  for (const f of status.folders)
    console.log(
      f.problem
        ? `job ${f.job}: ${f.inbox} can't be read: ${visible(f.problem)}`
        : `job ${f.job}: ${counted(f.waiting, "file")} in ${f.inbox}, ${f.processing} processing`,
    );
  printFiles(status);
  for (const n of status.numbers) console.log(poolNumberLine(n));
  for (const [name, c] of Object.entries(status.queues)) console.log(`${name} queue: ${countsLine(c)}`);
  for (const c of status.campaignsNotMade)
    console.log(
      `  not made campaign ${visible(c.name)} (${c.job}/${visible(c.file)}${c.variant ? `, variant ${c.variant}` : ""}${c.contacts === null ? "" : `, ${counted(c.contacts, "contact")} not called`}), ${c.outcome}${c.at ? ` ${localTime(c.at)}` : ""}: ${visible(c.reason)}`,
    );
  // The campaigns queue's failures are the campaigns not made, above.
  for (const f of status.otherFailures.filter((f) => f.queue !== "campaigns"))
    console.log(`  failed   ${f.queue} ${visible(f.name)}: ${visible(f.reason)}`);
}

/** The daemons running, the jobs paused and the campaigns still to create. */
function printDaemons({ daemons, paused, pendingCampaigns }: Status): void {
  if (daemons.length === 0) console.log("no daemon running");
  for (const d of daemons)
    console.log(
      `daemon ${d.role} on ${d.host} (pid ${d.pid}, since ${localTime(d.startedAt)}): ${d.http ? `${d.http}/ (dashboard), ${d.http}/metrics` : "HTTP off"}`,
    );
  for (const job of paused)
    console.log(
      `job ${job} is PAUSED: files wait in processing/, no contact is sent, no campaign created (vcw resume ${job})`,
    );
  for (const c of pendingCampaigns)
    console.log(`  campaign to create: ${visible(c.name ?? c.file)} (${c.id}; vcw cancel ${c.id})`);
}

/** The files in flight with where they are, and the failed imports. */
function printFiles({ files, failures }: Status): void {
  for (const f of files) {
    const p = f.progress;
    const where =
      typeof p === "object" && p.rowsRead !== undefined
        ? `${p.rowsRead} rows read, ${p.created} created, ${p.known} known, resume at row ${p.cursor}`
        : "not started";
    console.log(`  ${f.state.padEnd(8)} ${f.job}/${visible(f.file)} (attempt ${f.attempts}): ${where}`);
  }
  for (const f of failures) console.log(`  failed   ${f.job}/${visible(f.file)}: ${visible(f.reason)}`);
}
