import { CronExpressionParser } from "cron-parser";
import cron, { type ScheduledTask } from "node-cron";
import type { Logger } from "pino";
import { type JobDefinition, reportZoneOf } from "../config/job-definition.ts";
import type { RedisClient } from "../lib/redis.ts";
import type { RedisKeys } from "../lib/redis-keys.ts";
import { defineScript } from "../lib/scripts.ts";
import { gatherReport } from "../pipeline/reports/gather-report.ts";
import { scheduledPeriod } from "../pipeline/reports/period.ts";
import type { CampaignStore } from "../pipeline/results/campaign-store.ts";
import { enqueueDeliveries } from "./deliveries.ts";
import type { Queues } from "./queues.ts";

export interface ReportSchedulerDeps {
  jobs: ReadonlyMap<string, JobDefinition>;
  queues: Queues;
  store: CampaignStore;
  redis: RedisClient;
  keys: RedisKeys;
  logger: Logger;
  publicUrl?: string | undefined;
  now?: () => number;
}

/** Missed ticks sent at a start, newest kept: a daemon down for a month sends a week of dailies, not 30. */
export const MAX_BACKFILL = 7;

// Moves the last-run mark forward only: a late replica never moves it back.
const advance = defineScript<number>(
  "report_advance",
  1,
  `
local last = tonumber(redis.call('GET', KEYS[1]) or '0')
if tonumber(ARGV[1]) <= last then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
`,
);

const KEEP_MARK_MS = 400 * 86_400_000;

/** Deliveries that failed for good since `since` (the latest 100): a report lists them as problems. */
export const failedDeliveriesOf = (queues: Queues) => async (since: number) =>
  (await queues.deliveries.getJobs(["failed"], 0, 99))
    .filter((j) => j && (j.finishedOn ?? 0) >= since)
    .map((j) => ({ sink: j.data.sink, reason: j.failedReason, at: j.finishedOn ?? 0 }));

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
 * Scheduled reports (`reports[]` entries with a `period`): node-cron ticks in the report's zone in
 * every replica; a tick's report goes to each sink as a delivery whose job id comes from the tick,
 * so however many replicas (or a backfill and a live tick) add it, BullMQ keeps one. Each report
 * remembers its last tick in Redis; a start sends the ticks missed since (graphile-worker's backfill).
 */
export function startReportScheduler(d: ReportSchedulerDeps): {
  ready: Promise<void>;
  stop(): Promise<void>;
} {
  const now = d.now ?? Date.now;
  const tasks: ScheduledTask[] = [];
  const backfills: Promise<void>[] = [];
  for (const def of d.jobs.values()) {
    for (const [i, entry] of def.reports.entries()) {
      if (!entry.period) continue;
      const zone = reportZoneOf(def, entry.timezone);
      const mark = d.keys.reportLastRun(def.name, i);
      const send = async (tick: number) => {
        const last = Number((await d.redis.get(mark)) ?? 0);
        const period = scheduledPeriod(entry.period!, tick, zone, last);
        const sources = {
          store: d.store,
          publicUrl: d.publicUrl,
          failedDeliveries: failedDeliveriesOf(d.queues),
        };
        const report = await gatherReport([def], period, sources, now());
        if (d.publicUrl)
          report.pageUrl = `${d.publicUrl}/reports/${encodeURIComponent(def.name)}?from=${period.from}&to=${period.to}`;
        const seconds = Math.floor(tick / 1000);
        await enqueueDeliveries(d.queues, entry.sinks, `report:${def.name}:${i}`, report, seconds);
        await advance(d.redis, [mark], [tick, KEEP_MARK_MS]);
        d.logger.info({ job: def.name, report: i, period }, "report sent to its sinks");
      };
      const guarded = (tick: number) =>
        send(tick).catch((error: unknown) =>
          d.logger.error({ job: def.name, report: i, err: String(error) }, "scheduled report failed"),
        );
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
          if ((await d.redis.set(mark, String(started), "PX", KEEP_MARK_MS, "NX")) === "OK") return;
          const last = Number((await d.redis.get(mark)) ?? started);
          for (const tick of ticksBetween(entry.cron, zone, last, started, MAX_BACKFILL)) await guarded(tick);
        })(),
      );
    }
  }
  return {
    ready: Promise.all(backfills).then(() => undefined),
    async stop() {
      await Promise.all(tasks.map((t) => t.destroy()));
    },
  };
}
