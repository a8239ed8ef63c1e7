import { Redis } from "ioredis";
import pino from "pino";
import { afterAll, describe, expect, inject, it } from "vitest";
import { JobDefinition } from "../../src/config/job-definition.ts";
import { createMetrics } from "../../src/http/metrics.ts";
import { readOverview } from "../../src/http/overview.ts";
import { folderInbox } from "../../src/inbox/folder-inbox.ts";
import { redisKeys } from "../../src/lib/redis-keys.ts";
import { createCampaignStore } from "../../src/pipeline/stores/campaign-store.ts";
import { createControls } from "../../src/pipeline/stores/controls.ts";
import { createPresenceStore, type DaemonPresence } from "../../src/pipeline/stores/daemon-presence.ts";
import { createExperimentStore } from "../../src/pipeline/stores/experiment-store.ts";
import { createResourceState } from "../../src/pipeline/stores/resource-state.ts";
import { closeQueues, createQueues } from "../../src/queue/queues.ts";
import { type UnpolledJob, unpolledJobs, unpolledStreak } from "../../src/queue/read-model/unpolled-jobs.ts";
import { startScheduler } from "../../src/queue/scheduler.ts";
import { waitFor } from "../support/daemon.ts";
import { campaignInfo } from "../support/fixtures.ts";
import { useRedis } from "../support/redis.ts";

/** A job as a daemon loads it: polled every second. */
const jobNamed = (name: string) =>
  JobDefinition.parse({
    name,
    inbox: `inbox/${name}`,
    segment: { id: "seg_1" },
    campaign: { assistant: { id: "asst_1" }, dialer: { id: "dial_1" } },
    polling: { schedule: "* * * * * *" },
  });

/** A `vcw start` (or worker) as its presence entry says it. */
const daemon = (role: DaemonPresence["role"], ticks?: string[], loaded?: string[]): DaemonPresence => ({
  role,
  host: "h",
  pid: 1,
  http: null,
  startedAt: new Date().toISOString(),
  seenAt: Date.now(),
  ...(ticks ? { ticks } : {}),
  ...(loaded ? { loaded } : {}),
});

/** The overview (the dashboard's read model) of a prefix, with `jobs` loaded in the reading process. */
const overviewOf = (
  redis: Redis,
  keys: ReturnType<typeof redisKeys>,
  queues: ReturnType<typeof createQueues>,
  jobs: Map<string, JobDefinition>,
) =>
  readOverview({
    inboxes: folderInbox,
    redis,
    keys,
    queues,
    store: createCampaignStore(redis, keys),
    experiments: createExperimentStore(redis, keys),
    controls: createControls(redis, keys),
    resources: createResourceState(redis, keys),
    presence: createPresenceStore(redis, keys),
    jobs: () => jobs,
    watched: () => new Set(),
  });

const named = (found: UnpolledJob[]) => found.map(({ job, active, why }) => ({ job, active, why }));

describe("a job whose active campaigns no running daemon polls", () => {
  const { redis, prefix } = useRedis();
  const connections: Redis[] = [];
  afterAll(async () => {
    await Promise.all(connections.map((c) => c.quit()));
  });

  it("is named by what the running daemons tick, with the reason: none runs, not loaded, no campaign section", async () => {
    const store = createCampaignStore(redis, redisKeys(prefix()));
    for (const id of ["cmp_g1", "cmp_g2", "cmp_g3"])
      await store.register(campaignInfo({ id, name: id, job: "gone" }), Date.now());
    await store.register(campaignInfo({ id: "cmp_h", name: "cmp_h", job: "here" }), Date.now());
    await store.register(campaignInfo({ id: "cmp_b", name: "cmp_b", job: "bare" }), Date.now());
    await store.register(campaignInfo({ id: "cmp_e", name: "cmp_e", job: "ended" }), Date.now());
    await store.setState("cmp_e", "ended", (await store.get("cmp_e"))!.info, "finished");
    await store.setState("cmp_g3", "gone", (await store.get("cmp_g3"))!.info, "finished");

    // Nothing runs: every job with active campaigns ("ended" has none left).
    expect(named(await unpolledJobs(store, []))).toEqual([
      { job: "bare", active: 1, why: "no-scheduler" },
      { job: "gone", active: 2, why: "no-scheduler" },
      { job: "here", active: 1, why: "no-scheduler" },
    ]);
    // A worker ticks nothing, whatever it loads.
    const worker = daemon("worker", [], ["here", "gone", "bare"]);
    expect(named(await unpolledJobs(store, [worker]))).toHaveLength(3);
    // A vcw start ticks "here" and loads "bare" without a campaign section.
    const start = daemon("start", ["here"], ["here", "bare"]);
    const found = await unpolledJobs(store, [start, worker]);
    expect(named(found)).toEqual([
      { job: "bare", active: 1, why: "no-campaign-section" },
      { job: "gone", active: 2, why: "not-loaded" },
    ]);
    expect(found[1]!.reason).toBe("no running vcw start loads its job file");
    // Another ticks "gone" too: only "bare" is left.
    const other = daemon("start", ["gone"], ["gone"]);
    expect(named(await unpolledJobs(store, [start, other]))).toEqual([
      { job: "bare", active: 1, why: "no-campaign-section" },
    ]);
    // A vcw start of an earlier version says nothing of its jobs: a recorded tick counts as ticked.
    await store.setPollLag("gone", { at: Date.now(), lagMs: 0, due: 0, behind: false }, 600_000);
    expect(named(await unpolledJobs(store, [start, daemon("start")])).map((j) => j.job)).toEqual(["bare"]);
  });

  it("is warned of from the second look in a row, and not after a look that didn't find it", () => {
    const job = (name: string): UnpolledJob => ({
      job: name,
      active: 1,
      why: "not-loaded",
      reason: "",
      fix: "",
    });
    const again = unpolledStreak();
    expect(again([job("a")])).toEqual([]);
    expect(again([job("a"), job("b")]).map((j) => j.job)).toEqual(["a"]);
    expect(again([job("b")]).map((j) => j.job)).toEqual(["b"]);
    expect(again([job("a")])).toEqual([]);
  });

  it("jobs registered before the index are found once by their active sets", async () => {
    const p = prefix();
    const keys = redisKeys(p);
    const store = createCampaignStore(redis, keys);
    await store.register(campaignInfo({ id: "cmp_old", name: "cmp_old", job: "old-job" }), Date.now());
    await store.register(campaignInfo({ id: "cmp_x", name: "cmp_x", job: "x" }), Date.now());
    // As an earlier version left them: the campaigns, no index, and its epoch (daemon/redis-health.ts).
    await redis.del(keys.jobsWithCampaigns);
    await redis.set(keys.epoch, "earlier");
    expect(await store.backfillJobsWithCampaigns()).toBe(2);
    expect((await store.jobsWithCampaigns()).sort()).toEqual(["old-job", "x"]);
    // Once: the mark says it was done.
    await redis.del(keys.jobsWithCampaigns);
    expect(await store.backfillJobsWithCampaigns()).toBe(0);
    // A first start (no epoch): nothing to find, nothing scanned.
    const fresh = createCampaignStore(redis, redisKeys(prefix()));
    await fresh.register(campaignInfo({ id: "cmp_new", name: "cmp_new", job: "new" }), Date.now());
    expect(await fresh.backfillJobsWithCampaigns()).toBe(0);
    expect(await fresh.jobsWithCampaigns()).toEqual(["new"]);
  });

  it("the scheduler backfills the index and warns; the overview and /metrics show it and its campaigns; a daemon ticking it ends it", async () => {
    const p = prefix();
    const keys = redisKeys(p);
    const store = createCampaignStore(redis, keys);
    const presence = createPresenceStore(redis, keys);
    await store.register(campaignInfo({ id: "cmp_gone", name: "cmp_gone", job: "gone" }), Date.now());
    await store.register(campaignInfo({ id: "cmp_here", name: "cmp_here", job: "here" }), Date.now());
    // Made by an earlier version: its epoch, no index; the scheduler finds both jobs (one by its load, one by the scan).
    await redis.del(keys.jobsWithCampaigns);
    await redis.set(keys.epoch, "earlier");
    // This process as its daemon announces it (daemon/presence.ts): it ticks "here".
    await presence.write("me", daemon("start", ["here"], ["here"]));
    const connection = new Redis(inject("redisUrl"), { maxRetriesPerRequest: null });
    connections.push(connection);
    const queues = createQueues({ connection, keys });
    const warnings: string[] = [];
    const logger = pino(
      { level: "warn" },
      { write: (line: string) => warnings.push(JSON.parse(line).msg as string) },
    );
    // Looks every second instead of every minute: only the look's schedule is shortened.
    const scheduler = startScheduler({
      jobs: new Map([["here", jobNamed("here")]]),
      queues,
      store,
      presence,
      logger,
      unpolledCheck: "* * * * * *",
    });
    try {
      const gone = (w: string) =>
        w.startsWith(
          'job "gone" has 1 active campaign that no running daemon polls (no running vcw start loads',
        );
      await waitFor(() => warnings.some(gone) || undefined, 10_000, "the warning of job gone");
      expect((await store.jobsWithCampaigns()).sort()).toEqual(["gone", "here"]);
      expect(warnings.some((w) => w.startsWith('job "here"'))).toBe(false);
      const read = () => overviewOf(redis, keys, queues, new Map([["here", jobNamed("here")]]));
      const overview = await read();
      expect(named(overview.unpolledJobs)).toEqual([{ job: "gone", active: 1, why: "not-loaded" }]);
      // Its campaign stays in view though its job is loaded nowhere.
      expect(overview.campaignCounts).toContainEqual({ job: "gone", state: "active", count: 1 });
      expect(overview.campaigns.map((c) => c.id)).toContain("cmp_gone");
      const metrics = createMetrics();
      metrics.readState(async () => overview);
      expect(await metrics.registry.metrics()).toContain('vcw_campaigns_unpolled{job="gone"} 1');

      // A daemon that loads "gone" announces it: no longer named, no more warnings.
      await presence.write("other", daemon("start", ["gone"], ["gone"]));
      expect((await read()).unpolledJobs).toEqual([]);
      const seen = warnings.filter(gone).length;
      await new Promise((r) => setTimeout(r, 2_500));
      expect(warnings.filter(gone).length).toBe(seen);
    } finally {
      await scheduler.stop();
      await closeQueues(queues);
    }
  });

  it("a removed job's expired campaigns leave its index at the first read, and the job the index once none is left", async () => {
    const p = prefix();
    const keys = redisKeys(p);
    const store = createCampaignStore(redis, keys);
    await store.register(campaignInfo({ id: "cmp_kept", name: "cmp_kept", job: "gone" }), Date.now());
    await store.register(campaignInfo({ id: "cmp_exp", name: "cmp_exp", job: "gone" }), Date.now());
    await store.register(campaignInfo({ id: "cmp_exp2", name: "cmp_exp2", job: "old" }), Date.now());
    // Their data expired (retention): the meta is gone, the index still names them.
    await redis.del(keys.campaign.meta("cmp_exp"), keys.campaign.meta("cmp_exp2"));
    const queues = createQueues({ connection: redis, keys });
    try {
      const overview = await overviewOf(redis, keys, queues, new Map());
      expect(overview.campaigns.map((c) => c.id)).toEqual(["cmp_kept"]);
      expect(await store.idsOf("gone")).toEqual(["cmp_kept"]);
      expect(await store.idsOf("old")).toEqual([]);
      expect(await store.jobsWithCampaigns()).toEqual(["gone"]);
      // A campaign of "old" registered meanwhile (its index written first): the job is put back.
      await redis.sadd(keys.campaignsOf("old"), "cmp_new");
      await store.forgetExpired("old", [], true);
      expect((await store.jobsWithCampaigns()).sort()).toEqual(["gone", "old"]);
    } finally {
      await closeQueues(queues);
    }
  });
});
