import { setTimeout as sleep } from "node:timers/promises";
import { Worker } from "bullmq";
import { Redis } from "ioredis";
import pino, { type Logger } from "pino";
import { afterAll, describe, expect, inject, it } from "vitest";
import { JobDefinition } from "../../src/config/job-definition.ts";
import { createMetrics } from "../../src/http/metrics.ts";
import { readOverview } from "../../src/http/overview.ts";
import { folderInbox } from "../../src/inbox/folder-inbox.ts";
import { redisKeys } from "../../src/lib/redis-keys.ts";
import { createCampaignStore } from "../../src/pipeline/stores/campaign-store.ts";
import { createControls } from "../../src/pipeline/stores/controls.ts";
import { createPresenceStore } from "../../src/pipeline/stores/daemon-presence.ts";
import { createExperimentStore } from "../../src/pipeline/stores/experiment-store.ts";
import { createResourceState } from "../../src/pipeline/stores/resource-state.ts";
import {
  closeQueues,
  createQueues,
  type PollJobData,
  QUEUE_NAMES,
  type Queues,
  queuePrefix,
} from "../../src/queue/queues.ts";
import { startScheduler } from "../../src/queue/scheduler.ts";
import { waitFor } from "../support/daemon.ts";
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
    logger: Logger = pino({ level: "silent" }),
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
        presence: createPresenceStore(connection, redisKeys(p)),
        logger,
      });
      return { queues, scheduler };
    });
  }

  it("three replicas polling every second: each tick polls each due campaign once, none before its start", async () => {
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
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
    await store.register(campaignInfo({ id: "cmp_later", job: "sched", scheduledAt: tomorrow }), Date.now());
    let bulkAdds = 0;
    const replicas = startReplicas(3, p, def, (queues) => {
      const addBulk = queues.polls.addBulk.bind(queues.polls);
      queues.polls.addBulk = (jobs: Parameters<typeof addBulk>[0]) => {
        bulkAdds += jobs.length;
        return addBulk(jobs);
      };
    });
    // A stand-in for the poll worker: records each poll, and asks for the next tick (calls under way).
    const connection = new Redis(inject("redisUrl"), { maxRetriesPerRequest: null });
    connections.push(connection);
    const polled: string[] = [];
    const worker = new Worker<PollJobData>(
      QUEUE_NAMES.polls,
      async (job) => {
        polled.push(`${job.data.campaignId}@${job.data.tick}`);
        await store.schedulePoll("sched", job.data.campaignId, job.data.tick! + job.data.periodMs!);
      },
      { connection, prefix: queuePrefix(redisKeys(p), "polls") },
    );
    // Two ticks polled in full (a tick a second: about 2 s), then the replicas stop.
    const ticksPolled = () => {
      const ticks = new Set(polled.map((x) => x.split("@")[1]));
      const full = [...ticks].filter((tick) => polled.filter((x) => x.endsWith(`@${tick}`)).length >= 2);
      return full.length >= 2 ? true : undefined;
    };
    await waitFor(ticksPolled, 20_000, "two ticks of polls of cmp_a and cmp_b");
    for (const r of replicas) await r.scheduler.stop();
    await sleep(300);
    await worker.close();
    for (const r of replicas) await closeQueues(r.queues);

    const ticks = new Set(polled.map((x) => x.split("@")[1]));
    expect(ticks.size).toBeGreaterThanOrEqual(2);
    // Each tick: one poll per campaign, though three replicas ticked; and no job added twice.
    expect(new Set(polled).size).toBe(polled.length);
    for (const tick of ticks) {
      expect(
        polled
          .filter((x) => x.endsWith(`@${tick}`))
          .map((x) => x.split("@")[0])
          .sort(),
      ).toEqual(["cmp_a", "cmp_b"]);
    }
    expect(bulkAdds).toBe(polled.length);
    // A worker that keeps up: the last tick was not behind.
    expect((await store.pollLag("sched"))?.behind).toBe(false);
    expect(polled.some((x) => x.startsWith("cmp_later"))).toBe(false);
    expect(await store.nextPollOf("sched", "cmp_later")).toBe(Date.parse(tomorrow) + 15_000);
  });

  it("a worker that can't keep up: polls don't pile up, and the scheduler says it is behind", async () => {
    const p = prefix();
    const def = JobDefinition.parse({
      name: "slow",
      inbox: "inbox/slow",
      segment: { id: "seg_1" },
      campaign: { assistant: { id: "asst_1" }, dialer: { id: "dial_1" } },
      polling: { schedule: "* * * * * *" },
    });
    const store = createCampaignStore(redis, redisKeys(p));
    for (const id of ["cmp_a", "cmp_b"]) {
      await store.register(campaignInfo({ id, name: id, job: "slow" }), Date.now());
    }
    const warnings: string[] = [];
    const logger = pino({ level: "warn" }, { write: (line: string) => void warnings.push(line) });
    const replicas = startReplicas(2, p, def, () => {}, logger);
    // No worker at all: the polls of the first tick wait for ever. The warning comes at the second
    // tick behind in a row (the third tick: about 3 s).
    await waitFor(
      () =>
        warnings.some((w) => w.includes("polls of job slow are behind their schedule")) ? true : undefined,
      20_000,
      "the warning that polls are behind",
    );
    for (const r of replicas) await r.scheduler.stop();
    const jobs = await replicas[0]!.queues.polls.getJobs(["waiting"]);
    const overview = await readOverview({
      inboxes: folderInbox,
      redis,
      keys: redisKeys(p),
      queues: replicas[0]!.queues,
      store,
      experiments: createExperimentStore(redis, redisKeys(p)),
      controls: createControls(redis, redisKeys(p)),
      resources: createResourceState(redis, redisKeys(p)),
      presence: createPresenceStore(redis, redisKeys(p)),
      jobs: () => new Map([[def.name, def]]),
      watched: () => new Set(),
    });
    for (const r of replicas) await closeQueues(r.queues);

    expect(jobs.map((j) => j.data.campaignId).sort()).toEqual(["cmp_a", "cmp_b"]);
    const lag = await store.pollLag("slow");
    expect(lag?.behind).toBe(true);
    // The overview (the dashboard's read model) and /metrics say so too.
    expect(overview.jobs[0]!.polls).toMatchObject({ behind: true, due: expect.any(Number) });
    const metrics = createMetrics();
    metrics.readState(async () => overview);
    expect(await metrics.registry.metrics()).toContain('vcw_polls_behind{job="slow"} 1');
    expect(warnings.some((w) => w.includes("polls of job slow are behind their schedule"))).toBe(true);
  });
});
