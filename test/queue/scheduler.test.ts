import { setTimeout as sleep } from "node:timers/promises";
import { Redis } from "ioredis";
import pino from "pino";
import { afterAll, describe, expect, inject, it } from "vitest";
import { JobDefinition } from "../../src/config/job-definition.ts";
import { redisKeys } from "../../src/lib/redis-keys.ts";
import { createCampaignStore } from "../../src/pipeline/results/campaign-store.ts";
import { closeQueues, createQueues, type Queues } from "../../src/queue/queues.ts";
import { startScheduler } from "../../src/queue/scheduler.ts";
import { campaignInfo } from "../support/fixtures.ts";
import { useRedis } from "../support/redis.ts";

describe("startScheduler: replicas tick, each tick polls once", () => {
  const { redis, prefix } = useRedis();
  const connections: Redis[] = [];
  afterAll(async () => {
    await Promise.all(connections.map((c) => c.quit()));
  });

  /** `n` scheduler replicas, each with its own connection and queues, as separate processes would be. */
  function startReplicas(
    n: number,
    p: string,
    def: JobDefinition,
    wrap: (queues: Queues) => void = () => {},
  ) {
    return Array.from({ length: n }, () => {
      const connection = new Redis(inject("redisUrl"), { maxRetriesPerRequest: null });
      connections.push(connection);
      const queues = createQueues({ connection, keys: redisKeys(p) });
      wrap(queues);
      const scheduler = startScheduler({
        jobs: new Map([[def.name, def]]),
        queues,
        store: createCampaignStore(connection, redisKeys(p)),
        logger: pino({ level: "silent" }),
      });
      return { queues, scheduler };
    });
  }

  it("three replicas polling every second enqueue one poll per campaign and tick", async () => {
    const p = prefix();
    const def = JobDefinition.parse({
      name: "sched",
      inbox: "inbox/sched",
      segment: { id: "seg_1" },
      campaign: { assistant: { id: "asst_1" }, dialer: { id: "dial_1" } },
      polling: { schedule: "* * * * * *" },
    });
    const store = createCampaignStore(redis, redisKeys(p));
    for (const id of ["cmp_a", "cmp_b"]) {
      await store.register(campaignInfo({ id, name: id, job: "sched" }), Date.now());
    }
    let adds = 0;
    const replicas = startReplicas(3, p, def, (queues) => {
      const add = queues.polls.add.bind(queues.polls);
      queues.polls.add = (...args: Parameters<typeof add>) => {
        adds += 1;
        return add(...args);
      };
    });
    await sleep(3_300);
    for (const r of replicas) await r.scheduler.stop();
    await sleep(200);
    const jobs = await replicas[0]!.queues.polls.getJobs(["waiting"]);
    const ticks = new Set(jobs.map((j) => j.id!.split("-").at(-1)));
    for (const r of replicas) await closeQueues(r.queues);

    expect(ticks.size).toBeGreaterThanOrEqual(2);
    // Each tick: one job per campaign, although every replica added it.
    expect(jobs).toHaveLength(2 * ticks.size);
    expect(adds).toBeGreaterThanOrEqual(3 * jobs.length - 6);
    for (const tick of ticks) {
      expect(
        jobs
          .filter((j) => j.id!.endsWith(`-${tick}`))
          .map((j) => j.data.campaignId)
          .sort(),
      ).toEqual(["cmp_a", "cmp_b"]);
    }
  });

  it("digest reports: one per report tick with every campaign of the job, however many replicas", async () => {
    const p = prefix();
    const def = JobDefinition.parse({
      name: "digest",
      inbox: "inbox/digest",
      segment: { id: "seg_1" },
      campaign: { assistant: { id: "asst_1" }, dialer: { id: "dial_1" } },
      polling: { schedule: "0 0 1 1 *" },
      reports: [{ cron: "* * * * * *", sinks: ["log"] }],
    });
    const store = createCampaignStore(redis, redisKeys(p));
    for (const [id, state] of [
      ["cmp_x", "finished"],
      ["cmp_y", "active"],
    ] as const) {
      await store.register(campaignInfo({ id, name: id, job: "digest", state }), Date.now());
    }
    const replicas = startReplicas(2, p, def);
    await sleep(2_300);
    for (const r of replicas) await r.scheduler.stop();
    await sleep(200);
    const jobs = await replicas[0]!.queues.deliveries.getJobs(["waiting"]);
    for (const r of replicas) await closeQueues(r.queues);
    const ats = jobs.map((j) => (j.data.payload.kind === "digest" ? j.data.payload.at : ""));
    expect(jobs.length).toBeGreaterThanOrEqual(1);
    expect(new Set(ats).size).toBe(jobs.length);
    jobs.sort((a, b) =>
      (a.data.payload as { at: string }).at.localeCompare((b.data.payload as { at: string }).at),
    );
    const ids = (i: number) =>
      jobs[i]!.data.payload.kind === "digest"
        ? jobs[i]!.data.payload.campaigns.map((c) => [c.campaign.id, c.kind])
        : [];
    expect(jobs[0]!.data.payload).toMatchObject({ kind: "digest", job: "digest" });
    expect(ids(0)).toEqual([
      ["cmp_x", "final"],
      ["cmp_y", "progress"],
    ]);
    // Later digests cover what is active or ended since the one before: the ended campaign is not repeated.
    for (let i = 1; i < jobs.length; i++) expect(ids(i)).toEqual([["cmp_y", "progress"]]);
    expect(jobs.length).toBeGreaterThanOrEqual(2);
  });
});
