import cron, { type ScheduledTask, type TaskContext } from "node-cron";
import type { Logger } from "pino";
import type { JobDefinition } from "../config/job-definition.ts";
import type { CampaignStore } from "../pipeline/stores/campaign-store.ts";
import type { Controls } from "../pipeline/stores/controls.ts";
import type { PresenceStore } from "../pipeline/stores/daemon-presence.ts";
import { enqueueSummary } from "./deliveries.ts";
import { behindLogger, pollTick } from "./poll-tick.ts";
import type { Queues } from "./queues.ts";
import { unpolledJobs, unpolledStreak, warnUnpolled } from "./read-model/unpolled-jobs.ts";

export interface SchedulerDeps {
  jobs: ReadonlyMap<string, JobDefinition>;
  queues: Queues;
  store: CampaignStore;
  controls?: Pick<Controls, "isPaused">;
  /** The daemons running and the jobs each ticks: who polls what. */
  presence: Pick<PresenceStore, "list">;
  logger: Logger;
  now?: () => number;
  /** When to look for jobs whose campaigns nobody polls (a cron expression; tests shorten it). */
  unpolledCheck?: string;
}

/** When the scheduler looks for jobs whose campaigns nobody polls: every minute, at its 30th second. */
const UNPOLLED_CHECK = "30 * * * * *";

/** The second a cron tick was scheduled for: the same in every replica. */
const tickOf = (ctx: TaskContext) => Math.floor(ctx.date.getTime() / 1000);

/**
 * node-cron ticks in every scheduler replica. A poll tick takes the campaigns due atomically
 * (poll-tick.ts), so however many replicas ticked, each campaign is polled once; other tasks
 * enqueue with deterministic job ids, so BullMQ runs them once.
 */
export function startScheduler(d: SchedulerDeps): { stop(): Promise<void> } {
  const now = d.now ?? Date.now;
  const tasks: ScheduledTask[] = [];
  const every = (
    expression: string,
    name: string,
    run: (ctx: TaskContext, periodMs: number) => Promise<void>,
  ) => {
    const task = cron.schedule(
      expression,
      async (ctx) => {
        // The gap to the next tick: what "every tick" means for this schedule.
        const periodMs = Math.max(1_000, (task.getNextRun()?.getTime() ?? 0) - ctx.date.getTime());
        await run(ctx, periodMs).catch((error: unknown) =>
          d.logger.error({ task: name, err: String(error) }, "scheduled task failed"),
        );
      },
      { name, noOverlap: true },
    );
    tasks.push(task);
  };

  for (const def of d.jobs.values()) {
    if (!def.campaign) continue;
    const logBehind = behindLogger(d.logger, def.name);
    every(def.polling.schedule, `poll:${def.name}`, async (ctx, periodMs) => {
      const tickMs = tickOf(ctx) * 1000;
      logBehind(await pollTick({ ...d, now }, def, tickMs, periodMs), now());
    });
    const progress = def.summaries.progress;
    if (progress && def.summaries.sinks.length > 0) {
      every(progress, `progress:${def.name}`, async () => {
        for (const id of await d.store.activeOf(def.name)) {
          const stored = await d.store.get(id);
          if (!stored || stored.version <= stored.sentVersion) continue;
          await enqueueSummary(d.queues, d.store, id, def.summaries.sinks, "progress", now(), d.controls);
          await d.store.markSent(id, stored.version);
        }
      });
    }
  }
  // Once a minute: the jobs loaded here are named as having campaigns (the index repaired), those
  // from before the index found once, and a job with active campaigns that nobody ticks warned of
  // from the second look in a row (a daemon starting beside the one that ticks it may look first).
  const again = unpolledStreak();
  every(d.unpolledCheck ?? UNPOLLED_CHECK, "unpolled-jobs", async () => {
    await d.store.noteJobsWithCampaigns([...d.jobs.keys()]);
    await d.store
      .backfillJobsWithCampaigns()
      .catch((error: unknown) =>
        d.logger.warn({ err: String(error) }, "jobs with campaigns: backfill failed"),
      );
    warnUnpolled(d.logger, again(await unpolledJobs(d.store, await d.presence.list())));
  });
  return {
    async stop() {
      await Promise.all(tasks.map((t) => t.destroy()));
    },
  };
}
