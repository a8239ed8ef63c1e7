import { setTimeout as sleep } from "node:timers/promises";
import { CronExpressionParser } from "cron-parser";
import cron, { type ScheduledTask } from "node-cron";
import type { Logger } from "pino";
import type { JobDefinition } from "../config/job-definition.ts";
import { zoneOf } from "../config/job-zone.ts";
import type { InboxStores } from "../inbox/inbox-store.ts";
import type { ExperimentFacts } from "../pipeline/reports/gather-experiment.ts";
import { gatherReport } from "../pipeline/reports/gather-report.ts";
import { scheduledPeriod } from "../pipeline/reports/period.ts";
import type { CampaignStore } from "../pipeline/stores/campaign-store.ts";
import type { ReportRuns } from "../pipeline/stores/report-runs.ts";
import { enqueueDeliveries } from "./deliveries.ts";
import type { Queues } from "./queues.ts";
import { queueReportSources } from "./read-model/report-sources.ts";

export interface ReportSchedulerDeps {
  jobs: ReadonlyMap<string, JobDefinition>;
  queues: Queues;
  store: CampaignStore;
  /** A job's experiment decisions and assignments, for its section. */
  experiments?: ExperimentFacts | undefined;
  /** Each job's inbox: its import summaries are read there. */
  inboxes: InboxStores;
  /** Each report's last-run mark. */
  runs: ReportRuns;
  logger: Logger;
  publicUrl?: string | undefined;
  now?: () => number;
}

/**
 * A live tick's report is gathered this long after its tick: what ended or settled just before the
 * tick (stamped as it is written: a poll's changes, a file's summary) is written by then, so it is
 * in this period's report, not missed by it and left out of the next. Half the gap to the next tick
 * for a cron that ticks more often (tests tick every second).
 */
export const GATHER_AFTER_TICK_MS = 5_000;

export function gatherDelayOf(expression: string, zone: string, tick: number): number {
  const next = CronExpressionParser.parse(expression, { currentDate: new Date(tick), tz: zone })
    .next()
    .getTime();
  return Math.min(GATHER_AFTER_TICK_MS, (next - tick) / 2);
}

/** Missed ticks sent at a start, newest kept: a daemon down for a month sends a week of dailies, not 30. */
export const MAX_BACKFILL = 7;

/** The tick of `expression` in `zone` just before `tick`. */
export function previousTick(expression: string, zone: string, tick: number): number {
  return CronExpressionParser.parse(expression, { currentDate: new Date(tick), tz: zone })
    .prev()
    .getTime();
}

/** The ticks of `expression` in `zone` after `after` and up to `until` (ms), oldest first, at most `max`. */
export function ticksBetween(
  expression: string,
  zone: string,
  after: number,
  until: number,
  max: number,
): number[] {
  const it = CronExpressionParser.parse(expression, { currentDate: new Date(until + 1), tz: zone });
  const out: number[] = [];
  while (out.length < max) {
    const t = it.prev().getTime();
    if (t <= after) break;
    out.push(t);
  }
  return out.reverse();
}

/**
 * Scheduled reports (every `reports[]` entry): node-cron ticks in the report's zone in
 * every replica. A tick's period ends at the tick and starts no earlier than the tick before it
 * (nor the last one reported): whoever reports a tick, live or caught up, reports the same period,
 * periods follow each other without overlap, and a delivery's job id comes from the tick, so
 * BullMQ keeps one. Each report keeps its last tick in Redis; a live tick and a start first catch up
 * the ticks missed since (the newest MAX_BACKFILL, oldest first, one at a time per report and
 * process: graphile-worker's backfill).
 */
export function startReportScheduler(d: ReportSchedulerDeps): {
  ready: Promise<void>;
  stop(): Promise<void>;
} {
  const now = d.now ?? Date.now;
  const tasks: ScheduledTask[] = [];
  // Stopping ends a wait for a tick's gathering: that tick stays unsent, caught up at the next start.
  const stopping = new AbortController();
  const backfills: Promise<void>[] = [];
  for (const def of d.jobs.values()) {
    for (const [i, entry] of def.reports.entries()) {
      const zone = zoneOf(def, entry.timezone);
      const log = { job: def.name, report: i };
      const send = async (tick: number, last: number) => {
        const early = tick + gatherDelayOf(entry.cron, zone, tick) - Date.now();
        if (early > 0) await sleep(early, undefined, { signal: stopping.signal });
        const after = Math.max(last, previousTick(entry.cron, zone, tick));
        const period = scheduledPeriod(entry.period, tick, zone, after);
        const sources = {
          store: d.store,
          experiments: d.experiments,
          inboxes: d.inboxes,
          publicUrl: d.publicUrl,
          ...queueReportSources(d.queues),
        };
        const report = await gatherReport([def], period, sources, now());
        if (d.publicUrl)
          report.pageUrl = `${d.publicUrl}/reports/${encodeURIComponent(def.name)}?from=${period.from}&to=${period.to}`;
        await enqueueDeliveries(
          d.queues,
          entry.sinks,
          `report:${def.name}:${i}`,
          report,
          Math.floor(tick / 1000),
        );
        await d.runs.advance(def.name, i, tick);
        d.logger.info({ ...log, period }, "report sent to its sinks");
      };
      /** The ticks since the mark up to `until` (the newest MAX_BACKFILL), in order. */
      const catchUp = async (until: number) => {
        const last = (await d.runs.last(def.name, i)) ?? until;
        for (const tick of ticksBetween(entry.cron, zone, last, until, MAX_BACKFILL)) await send(tick, last);
      };
      // One catch-up at a time in this process: a live tick waits for the backfill before it.
      let queue = Promise.resolve();
      const guarded = (until: number) => {
        queue = queue.then(() =>
          catchUp(until).catch((error: unknown) => {
            if (!stopping.signal.aborted)
              d.logger.error({ ...log, err: String(error) }, "scheduled report failed");
          }),
        );
        return queue;
      };
      tasks.push(
        cron.schedule(entry.cron, (ctx) => guarded(Math.floor(ctx.date.getTime() / 1000) * 1000), {
          name: `report:${def.name}:${i}`,
          timezone: zone,
          noOverlap: true,
        }),
      );
      backfills.push(
        (async () => {
          const started = now();
          // A first start has no mark: it sets one, so ticks missed from now on are known.
          if (await d.runs.start(def.name, i, started)) return;
          await guarded(started);
        })(),
      );
    }
  }
  return {
    ready: Promise.all(backfills).then(() => undefined),
    async stop() {
      stopping.abort();
      await Promise.all(tasks.map((t) => t.destroy()));
    },
  };
}
