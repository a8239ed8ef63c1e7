import { readdir } from "node:fs/promises";
import { Command } from "commander";
import { loadJobs } from "../../config/load-jobs.ts";
import { listDaemons } from "../../daemon/presence.ts";
import { dropFolder, isCandidate } from "../../inbox/drop-folder.ts";
import { createStopStore } from "../../pipeline/campaign/stop-store.ts";
import { describeStop } from "../../pipeline/campaign/stop-summary.ts";
import { createControls } from "../../pipeline/stores/controls.ts";
import { closeQueues, createQueues } from "../../queue/queues.ts";
import { withRedis } from "../with-redis.ts";

export function statusCommand(): Command {
  return new Command("status")
    .description("Show the import queue, the files in flight with their progress, and recent failures")
    .option("--json", "print one JSON object")
    .action(async (o) => {
      await withRedis(async ({ redis, keys, settings, where: url }) => {
        const queues = createQueues({ connection: redis, keys });
        const queue = queues.imports;
        try {
          const counts = await queue.getJobCounts("waiting", "active", "delayed", "completed", "failed");
          const active = await queue.getJobs(["active", "waiting", "delayed"], 0, 50);
          const failed = await queue.getJobs(["failed"], 0, 10);
          const rate = await redis.hget(keys.limiter, "rate");
          const { jobs } = await loadJobs(settings.jobsDir.value);
          const folders = await Promise.all(
            jobs.map(async ({ job }) => {
              const f = dropFolder(job.inbox);
              const count = async (dir: string) =>
                (await readdir(dir, { withFileTypes: true }).catch(() => [])).filter(
                  (e) => e.isFile() && isCandidate(e.name),
                ).length;
              return {
                job: job.name,
                inbox: job.inbox,
                waiting: await count(f.inbox),
                processing: await count(f.processing),
              };
            }),
          );
          const files = await Promise.all(
            active.map(async (j) => ({
              id: j.id,
              job: j.data.job,
              file: j.data.original,
              state: await j.getState(),
              attempts: j.attemptsStarted,
              progress: j.progress,
            })),
          );
          const others = {
            campaigns: queues.campaigns,
            polls: queues.polls,
            followUps: queues.followUps,
            deliveries: queues.deliveries,
          };
          const otherCounts: Record<string, Record<string, number>> = {};
          const otherFailures: { queue: string; id: string | undefined; name: string; reason: string }[] = [];
          for (const [name, q] of Object.entries(others)) {
            otherCounts[name] = await q.getJobCounts("waiting", "active", "delayed", "completed", "failed");
            for (const j of await q.getJobs(["failed"], 0, 10)) {
              otherFailures.push({ queue: name, id: j.id, name: j.name, reason: j.failedReason });
            }
          }
          const failures = failed.map((j) => ({
            id: j.id,
            job: j.data.job,
            file: j.data.original,
            reason: j.failedReason,
          }));
          const paused = await createControls(redis, keys).paused();
          const pendingCampaigns = (await queues.campaigns.getJobs(["waiting", "delayed"], 0, 50)).map(
            (j) => ({
              id: j.id,
              job: j.data.job,
              file: j.data.original,
              name: j.data.name,
              ...(j.data.zone ? { zone: j.data.zone } : {}),
            }),
          );
          // Campaigns vcw stopped (issue 20), those that ran past their window first.
          const stopStore = createStopStore(redis, keys);
          const stoppedCampaigns = (
            await Promise.all(jobs.map(async ({ job }) => stopStore.latestOf(job.name, 10)))
          )
            .flat()
            .sort(
              (a, b) => Number(b.stop.ranPastWindow) - Number(a.stop.ranPastWindow) || b.stop.at - a.stop.at,
            );
          const daemons = (await listDaemons(redis, keys)).map(({ id: _, stale: __, ...d }) => d);
          const status = {
            redis: url,
            daemons,
            paused,
            pendingCampaigns,
            queue: counts,
            rate: rate === null ? undefined : Number(rate),
            folders,
            files,
            failures,
            queues: otherCounts,
            otherFailures,
            stoppedCampaigns,
          };
          if (o.json) {
            process.stdout.write(`${JSON.stringify(status)}\n`);
            return;
          }
          console.log(`redis ${url}`);
          if (daemons.length === 0) console.log("no daemon running");
          for (const d of daemons)
            console.log(
              `daemon ${d.role} on ${d.host} (pid ${d.pid}, since ${d.startedAt}): ${d.http ? `${d.http}/ (dashboard), ${d.http}/metrics` : "HTTP off"}`,
            );
          for (const job of paused)
            console.log(
              `job ${job} is PAUSED: files wait in processing/, no contact is sent, no campaign created (vcw resume ${job})`,
            );
          for (const c of pendingCampaigns)
            console.log(`  campaign to create: ${c.name ?? c.file} (${c.id}; vcw cancel ${c.id})`);
          for (const c of stoppedCampaigns) console.log(`  campaign ${c.id}: ${describeStop(c.stop)}`);
          console.log(
            `import queue: ${Object.entries(counts)
              .map(([k, v]) => `${v} ${k}`)
              .join(", ")}`,
          );
          if (status.rate !== undefined) console.log(`shared request rate: ${status.rate.toFixed(1)} req/s`);
          for (const f of folders)
            console.log(`job ${f.job}: ${f.waiting} file(s) in ${f.inbox}, ${f.processing} processing`);
          for (const f of files) {
            const p = f.progress as { rowsRead?: number; created?: number; known?: number; cursor?: number };
            const where =
              typeof p === "object" && p.rowsRead !== undefined
                ? `${p.rowsRead} rows read, ${p.created} created, ${p.known} known, resume at row ${p.cursor}`
                : "not started";
            console.log(`  ${f.state.padEnd(8)} ${f.job}/${f.file} (attempt ${f.attempts}): ${where}`);
          }
          for (const f of failures) console.log(`  failed   ${f.job}/${f.file}: ${f.reason}`);
          for (const [name, c] of Object.entries(otherCounts)) {
            console.log(
              `${name} queue: ${Object.entries(c)
                .map(([k, v]) => `${v} ${k}`)
                .join(", ")}`,
            );
          }
          for (const f of otherFailures) console.log(`  failed   ${f.queue} ${f.name}: ${f.reason}`);
        } finally {
          await closeQueues(queues);
        }
      });
    });
}
