import { setTimeout as sleep } from "node:timers/promises";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { JobDefinition } from "../../src/config/job-definition.ts";
import { folderInbox } from "../../src/inbox/folder-inbox.ts";
import { type RedisKeys, redisKeys } from "../../src/lib/redis-keys.ts";
import { emptyTotals } from "../../src/pipeline/model/campaign-totals.ts";
import type { CampaignInfo } from "../../src/pipeline/model/results.ts";
import type { ReportModel } from "../../src/pipeline/reports/model.ts";
import { type CampaignStore, createCampaignStore } from "../../src/pipeline/stores/campaign-store.ts";
import { createReportRuns } from "../../src/pipeline/stores/report-runs.ts";
import { closeQueues, createQueues, type Queues } from "../../src/queue/queues.ts";
import { startReportScheduler, ticksBetween } from "../../src/queue/report-scheduler.ts";
import { waitFor } from "../support/daemon.ts";
import { campaignInfo, resultRecord } from "../support/fixtures.ts";
import { useRedis } from "../support/redis.ts";

/** A job whose one report is `report`; its polls never tick. */
const reportJob = (name: string, report: Record<string, unknown>) =>
  JobDefinition.parse({
    name,
    inbox: `inbox/${name}`,
    segment: { id: "seg_1" },
    campaign: { assistant: { id: "asst_1" }, dialer: { id: "dial_1" } },
    polling: { schedule: "0 0 1 1 *" },
    reports: [{ sinks: ["log"], ...report }],
  });

/** Calls to `phones` ended now, committed to the campaign as a poll commits them. */
function callsEnded(
  store: CampaignStore,
  info: CampaignInfo,
  phones: string[],
  state: "active" | "finished" = "active",
) {
  return store.commit(
    info.id,
    info.job,
    {
      changes: phones.map((phone) => ({
        phone,
        fingerprint: "f",
        record: resultRecord(phone, { status: "completed", durationSec: 40 }),
      })),
      transitions: phones.map((phone) => ({ phone, from: "queued", to: "completed" })),
      totals: {
        ...emptyTotals(),
        contacts: phones.length,
        final: phones.length,
        byStatus: { completed: phones.length },
      },
      digest: "d",
      version: 1,
      now: Date.now(),
      state,
    },
    info,
  );
}

describe("scheduled reports", () => {
  const { redis, prefix } = useRedis();
  const quiet = pino({ level: "silent" });
  /** A report scheduler (a daemon's) of `def`, on the clock `now` (the real one unless told). */
  const schedulerOf = (
    def: JobDefinition,
    keys: RedisKeys,
    queues: Queues,
    store: CampaignStore,
    now: () => number = Date.now,
  ) =>
    startReportScheduler({
      jobs: new Map([[def.name, def]]),
      queues,
      store,
      inboxes: folderInbox,
      runs: createReportRuns(redis, keys),
      logger: quiet,
      now,
    });
  /** The reports enqueued so far, one per delivery job. */
  const reportsIn = async (queues: Queues) =>
    (await queues.deliveries.getJobs(["waiting", "delayed", "completed", "active"])).map(
      (j) => j.data.payload as ReportModel,
    );

  it("lists the ticks of a cron in a zone between two instants", () => {
    const at = (s: string) => Date.parse(s);
    expect(
      ticksBetween(
        "0 8 * * *",
        "America/Los_Angeles",
        at("2026-11-01T00:00:00Z"),
        at("2026-11-03T17:00:00Z"),
        7,
      ).map((t) => new Date(t).toISOString()),
    ).toEqual(["2026-11-01T16:00:00.000Z", "2026-11-02T16:00:00.000Z", "2026-11-03T16:00:00.000Z"]);
    expect(ticksBetween("* * * * *", "UTC", 0, at("2026-11-01T00:10:00Z"), 3)).toHaveLength(3);
  });

  it("a tick missed while no scheduler ran is sent once at the next start, by two replicas at once", async () => {
    const p = prefix();
    const keys = redisKeys(p);
    const def = reportJob("rep", { cron: "*/2 * * * * *", period: "since-last", timezone: "UTC" });
    const store = createCampaignStore(redis, keys);
    const info = campaignInfo({ id: "cmp_r", name: "Report me", job: "rep" });
    await store.register(info, Date.now() - 60_000);
    const queues = createQueues({ connection: redis, keys });
    const start = (now?: () => number) => schedulerOf(def, keys, queues, store, now);

    // Running: the first start sets the mark. Stopped before a tick.
    const first = start();
    await first.ready;
    await first.stop();
    const stoppedAt = Date.now();
    const markBefore = Number(await redis.get(keys.reportLastRun("rep", 0)));
    // Calls end while nothing runs (stamped by Redis's clock as they are stored: no clock to set back),
    // and a tick passes after them (one every 2 s).
    await callsEnded(store, info, ["+15550001", "+15550002"]);
    const endedBy = Date.now();
    await waitFor(
      () => (ticksBetween("*/2 * * * * *", "UTC", endedBy, Date.now(), 7).length > 0 ? true : undefined),
      20_000,
      "a tick after the calls ended",
    );
    const restartAt = Date.now();
    const missed = ticksBetween("*/2 * * * * *", "UTC", markBefore, restartAt, 7);
    expect(missed.length).toBeGreaterThanOrEqual(1);

    const [a, b] = [start(), start()];
    await Promise.all([a.ready, b.ready]);
    await Promise.all([a.stop(), b.stop()]);
    // A third start later finds nothing missed.
    const c = start();
    await c.ready;
    await c.stop();

    const jobs = await queues.deliveries.getJobs(["waiting", "delayed", "completed", "active"]);
    await closeQueues(queues);
    const reports = jobs.map((j) => j.data.payload as ReportModel);
    const tos = reports.map((r) => r.period.to);
    expect(new Set(tos).size).toBe(tos.length); // no tick twice
    for (const tick of missed) {
      const sent = reports.filter((r) => r.period.to === new Date(tick).toISOString());
      expect(sent, `tick ${new Date(tick).toISOString()}`).toHaveLength(1);
    }
    const backfilled = reports.find((r) => r.period.to === new Date(missed[0]!).toISOString())!;
    expect(Date.parse(backfilled.period.from)).toBe(markBefore);
    expect(backfilled.period.label).toBe("since-last");
    expect(backfilled.totals).toMatchObject({ calls: 2, reached: 2, contactsCalled: 2 });
    expect(backfilled.campaigns.map((x) => x.name)).toEqual(["Report me"]);
    expect(missed.at(-1)!).toBeGreaterThan(stoppedAt);
  });

  it("a catch-up overlapping live ticks, in two schedulers: each period reported once, none overlapping (issue 32 item 8)", async () => {
    const keys = redisKeys(prefix());
    const def = reportJob("rep2", { cron: "*/2 * * * * *", period: "day", timezone: "UTC" });
    const store = createCampaignStore(redis, keys);
    const info = campaignInfo({ id: "cmp_o", name: "Overlap", job: "rep2" });
    await store.register(info, Date.now() - 60_000);
    const queues = createQueues({ connection: redis, keys });
    const start = (now?: () => number) => schedulerOf(def, keys, queues, store, now);
    // Ticks missed: two before the calls end, as the first start ran 4.3 s ago (its clock set back),
    // and one after them, waited for (the calls are stamped by Redis's clock as they are stored).
    const first = start(() => Date.now() - 4_300);
    await first.ready;
    await first.stop();
    const phones = Array.from({ length: 7 }, (_, i) => `+1555000100${i}`);
    await callsEnded(store, info, phones);
    const endedBy = Date.now();
    await waitFor(
      () => (ticksBetween("*/2 * * * * *", "UTC", endedBy, Date.now(), 7).length > 0 ? true : undefined),
      20_000,
      "a tick after the calls ended",
    );
    const mark = Number(await redis.get(keys.reportLastRun("rep2", 0)));
    // Two daemons start: each catches up while the other's live ticks come.
    const missed = ticksBetween("*/2 * * * * *", "UTC", mark, Date.now(), 7).length;
    expect(missed).toBeGreaterThanOrEqual(3);
    const [a, b] = [start(), start()];
    await Promise.all([a.ready, b.ready]);
    // Four periods or more reported, a live tick's among them (more than the ticks missed).
    await waitFor(
      async () => {
        const tos = new Set((await reportsIn(queues)).map((r) => r.period.to));
        return tos.size >= Math.max(4, missed + 1) ? true : undefined;
      },
      20_000,
      "four periods reported, a live tick's among them",
    );
    await Promise.all([a.stop(), b.stop()]);
    await sleep(300);

    const jobs = await queues.deliveries.getJobs(["waiting", "delayed", "completed", "active"]);
    await closeQueues(queues);
    const periods = jobs
      .map((j) => j.data.payload as ReportModel)
      .map((r) => ({ from: Date.parse(r.period.from), to: Date.parse(r.period.to), calls: r.totals.calls }))
      .sort((x, y) => x.to - y.to);
    expect(periods.length).toBeGreaterThanOrEqual(4);
    expect(new Set(periods.map((p) => p.to)).size).toBe(periods.length);
    for (const [k, p] of periods.entries()) {
      expect(p.from).toBeLessThan(p.to);
      if (k > 0) expect(p.from, `period ${k} starts where ${k - 1} ended`).toBe(periods[k - 1]!.to);
    }
    // The 7 calls, each in one report.
    expect(periods.reduce((n, p) => n + p.calls, 0)).toBe(7);
  }, 30_000);

  it("an entry without a period (written for the digest): one since-last report per tick, however many replicas", async () => {
    const keys = redisKeys(prefix());
    const def = reportJob("plain", { cron: "* * * * * *" });
    expect(def.reports[0]!.period).toBe("since-last");
    const store = createCampaignStore(redis, keys);
    const x = campaignInfo({ id: "cmp_x", name: "Ends", job: "plain" });
    const y = campaignInfo({ id: "cmp_y", name: "Runs", job: "plain" });
    for (const info of [x, y]) await store.register(info, Date.now() - 60_000);
    const queues = createQueues({ connection: redis, keys });
    const replicas = [0, 1].map(() => schedulerOf(def, keys, queues, store));
    await Promise.all(replicas.map((r) => r.ready));
    await callsEnded(store, x, ["+15550001"], "finished");
    // The report with the ended campaign's call, and one report after it (where it must be absent).
    await waitFor(
      async () => {
        const sorted = (await reportsIn(queues)).sort((a, b) => a.period.to.localeCompare(b.period.to));
        const withCall = sorted.findIndex((r) =>
          r.campaigns.some((c) => c.name === "Ends" && (c.callsInPeriod ?? 0) > 0),
        );
        return withCall >= 0 && sorted.length > withCall + 1 ? true : undefined;
      },
      20_000,
      "the report of the call and one after it",
    );
    await Promise.all(replicas.map((r) => r.stop()));
    await sleep(300);

    const jobs = await queues.deliveries.getJobs(["waiting", "delayed", "completed", "active"]);
    await closeQueues(queues);
    const reports = jobs
      .map((j) => j.data.payload as ReportModel)
      .sort((a, b) => a.period.to.localeCompare(b.period.to));
    expect(reports.length).toBeGreaterThanOrEqual(2);
    expect(new Set(reports.map((r) => r.period.to)).size).toBe(reports.length); // one per tick
    for (const [k, r] of reports.entries()) {
      expect(r.period.label).toBe("since-last");
      if (k > 0) expect(r.period.from).toBe(reports[k - 1]!.period.to);
    }
    // The running campaign is in every report; the one that ended has its call in one report and is in
    // none after it. A tick before it ended may list it as running (the replicas tick from their start, so
    // on a busy machine the first can come before callsEnded: a CI run listed it twice).
    const names = reports.map((r) => r.campaigns.map((c) => c.name).sort());
    for (const n of names) expect(n).toContain("Runs");
    const ends = reports.map((r) => r.campaigns.find((c) => c.name === "Ends"));
    const withCall = ends.findIndex((c) => (c?.callsInPeriod ?? 0) > 0);
    expect(ends.filter((c) => (c?.callsInPeriod ?? 0) > 0)).toHaveLength(1);
    expect(ends.slice(withCall + 1).filter(Boolean)).toEqual([]);
    for (const c of ends.slice(0, withCall)) if (c) expect(c.state).toBe("active");
    expect(reports.reduce((n, r) => n + r.totals.calls, 0)).toBe(1);
  });
});
