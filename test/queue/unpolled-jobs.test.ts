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
import { createExperimentStore } from "../../src/pipeline/stores/experiment-store.ts";
import { createResourceState } from "../../src/pipeline/stores/resource-state.ts";
import { closeQueues, createQueues } from "../../src/queue/queues.ts";
import { startScheduler } from "../../src/queue/scheduler.ts";
import { unpolledJobs } from "../../src/queue/unpolled-jobs.ts";
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

describe("a job whose file is loaded nowhere while its campaigns are active", () => {
  const { redis, prefix } = useRedis();
  const connections: Redis[] = [];
  afterAll(async () => {
    await Promise.all(connections.map((c) => c.quit()));
  });

  it("is named while nobody ticks it, with its active campaigns counted, and not once a daemon does", async () => {
    const p = prefix();
    const store = createCampaignStore(redis, redisKeys(p));
    for (const id of ["cmp_g1", "cmp_g2", "cmp_g3"])
      await store.register(campaignInfo({ id, name: id, job: "gone" }), Date.now());
    await store.register(campaignInfo({ id: "cmp_h", name: "cmp_h", job: "here" }), Date.now());
    await store.register(campaignInfo({ id: "cmp_e", name: "cmp_e", job: "ended" }), Date.now());
    const ended = (await store.get("cmp_e"))!;
    await store.setState("cmp_e", "ended", ended.info, "finished");
    await store.setState("cmp_g3", "gone", (await store.get("cmp_g3"))!.info, "finished");

    // "here" is loaded (ticked) here; "ended" has no active campaign left.
    const loaded = new Map([["here", jobNamed("here")]]);
    expect(await unpolledJobs(store, loaded)).toEqual([{ job: "gone", active: 2, why: "not-loaded" }]);
    // Loaded here without a campaign section: nothing polls it either, and that is the reason given.
    const bare = JobDefinition.parse({ name: "gone", inbox: "inbox/gone", segment: { id: "seg_1" } });
    expect(await unpolledJobs(store, new Map([...loaded, ["gone", bare]]))).toEqual([
      { job: "gone", active: 2, why: "no-campaign-section" },
    ]);
    // Another daemon ticks "gone" (its record of the tick): nobody's campaigns are left unpolled.
    await store.setPollLag("gone", { at: Date.now(), lagMs: 0, due: 0, behind: false }, 60_000);
    expect(await unpolledJobs(store, loaded)).toEqual([]);
  });

  it("a job registered before the index is named by the daemon that still loads it", async () => {
    const p = prefix();
    const keys = redisKeys(p);
    const store = createCampaignStore(redis, keys);
    await store.register(campaignInfo({ id: "cmp_old", name: "cmp_old", job: "old" }), Date.now());
    // As an earlier version left it: the campaign, no index.
    await redis.del(keys.jobsWithCampaigns);
    expect(await store.jobsWithCampaigns()).toEqual([]);
    await store.noteJobsWithCampaigns(["old"]);
    expect(await store.jobsWithCampaigns()).toEqual(["old"]);
  });

  it("the scheduler warns of it, the overview and /metrics show it and its campaigns, until a daemon loads it", async () => {
    const p = prefix();
    const keys = redisKeys(p);
    const store = createCampaignStore(redis, keys);
    await store.register(campaignInfo({ id: "cmp_gone", name: "cmp_gone", job: "gone" }), Date.now());
    await store.register(campaignInfo({ id: "cmp_here", name: "cmp_here", job: "here" }), Date.now());
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
      logger,
      unpolledCheck: "* * * * * *",
    });
    const read = () =>
      readOverview({
        inboxes: folderInbox,
        redis,
        keys,
        queues,
        store,
        experiments: createExperimentStore(redis, keys),
        controls: createControls(redis, keys),
        resources: createResourceState(redis, keys),
        jobs: () => new Map([["here", jobNamed("here")]]),
        watched: () => new Set(),
      });
    const named = (w: string) =>
      w.startsWith('job "gone" has 1 active campaign that no running daemon polls');
    // Named the second look in a row (the first may come before another daemon's first tick).
    await waitFor(() => warnings.some(named) || undefined, 10_000, "the warning of job gone");
    expect(warnings.some((w) => w.startsWith('job "here"'))).toBe(false);
    const overview = await read();
    expect(overview.unpolledJobs).toEqual([{ job: "gone", active: 1, why: "not-loaded" }]);
    // Its campaign stays in view though its job is loaded nowhere.
    expect(overview.campaignCounts).toContainEqual({ job: "gone", state: "active", count: 1 });
    expect(overview.campaigns.map((c) => c.id)).toContain("cmp_gone");
    const metrics = createMetrics();
    metrics.readState(async () => overview);
    expect(await metrics.registry.metrics()).toContain('vcw_campaigns_unpolled{job="gone"} 1');

    // A daemon that loads "gone" again ticks it: no longer named, no more warnings.
    const back = startScheduler({
      jobs: new Map([["gone", jobNamed("gone")]]),
      queues: createQueues({ connection, keys }),
      store,
      logger: pino({ level: "silent" }),
    });
    await waitFor(async () => (await store.pollLag("gone")) ?? undefined, 10_000, "a tick of job gone");
    expect((await read()).unpolledJobs).toEqual([]);
    const seen = warnings.filter(named).length;
    await new Promise((r) => setTimeout(r, 2_500));
    expect(warnings.filter(named).length).toBe(seen);
    await back.stop();
    await scheduler.stop();
    await closeQueues(queues);
  });
});
