import { Worker } from "bullmq";
import { afterAll, describe, expect, it } from "vitest";
import { JobDefinition } from "../../src/config/job-definition.ts";
import { campaignIndex } from "../../src/http/campaign-index.ts";
import { readOverview } from "../../src/http/overview.ts";
import { folderInbox } from "../../src/inbox/folder-inbox.ts";
import { redisKeys } from "../../src/lib/redis-keys.ts";
import { createCampaignStore } from "../../src/pipeline/stores/campaign-store.ts";
import { createControls } from "../../src/pipeline/stores/controls.ts";
import { createPresenceStore } from "../../src/pipeline/stores/daemon-presence.ts";
import { createExperimentStore } from "../../src/pipeline/stores/experiment-store.ts";
import { createResourceState } from "../../src/pipeline/stores/resource-state.ts";
import {
  campaignResultOf,
  followUpResultOf,
  importProgressOf,
  importResultOf,
} from "../../src/queue/job-results.ts";
import { closeQueues, createQueues, QUEUE_NAMES, type Queues, queuePrefix } from "../../src/queue/queues.ts";
import { queueFailures } from "../../src/queue/read-model/queue-views.ts";
import { campaignInfo } from "../support/fixtures.ts";
import { useRedis } from "../support/redis.ts";

describe("the read model", () => {
  const { redis, prefix } = useRedis();
  const opened: Queues[] = [];
  afterAll(async () => {
    for (const q of opened) await closeQueues(q);
  });

  it("the overview and the campaigns index share one read of every campaign", async () => {
    const keys = redisKeys(prefix());
    const store = createCampaignStore(redis, keys);
    for (const id of ["cmp_1", "cmp_2", "cmp_3"])
      await store.register(campaignInfo({ id, name: id, job: "shared" }), Date.now());
    let gets = 0;
    const counted = {
      ...store,
      get: (id: string) => {
        gets += 1;
        return store.get(id);
      },
    };
    const def = JobDefinition.parse({
      name: "shared",
      inbox: "inbox/shared",
      segment: { id: "seg_1" },
      campaign: { assistant: { id: "asst_1" }, dialer: { id: "dial_1" } },
    });
    const queues = createQueues({ connection: redis, keys });
    opened.push(queues);
    const src = {
      redis,
      keys,
      queues,
      store: counted,
      experiments: createExperimentStore(redis, keys),
      controls: createControls(redis, keys),
      resources: createResourceState(redis, keys),
      presence: createPresenceStore(redis, keys),
      jobs: () => new Map([[def.name, def]]),
      inboxes: folderInbox,
      watched: () => new Set<string>(),
    };
    const overview = await readOverview(src);
    const rows = await campaignIndex(src).get();
    expect(overview.campaignCounts).toEqual([{ job: "shared", state: "active", count: 3 }]);
    expect(overview.campaigns.map((c) => c.id).sort()).toEqual(["cmp_1", "cmp_2", "cmp_3"]);
    expect(rows.map((r) => r.id).sort()).toEqual(["cmp_1", "cmp_2", "cmp_3"]);
    expect(gets).toBe(3);
    expect(overview.rate).toBeNull();
    expect(overview.jobs[0]).toMatchObject({ name: "shared", paused: false, waiting: 0, processing: 0 });
  });

  it("reads a job's progress and return value by their shape, and drops what does not fit", () => {
    const progress = { cursor: 4, rowsRead: 5, created: 3, known: 1, elsewhere: 0, failed: 0, reconciles: 0 };
    expect(importProgressOf({ progress: { ...progress, phase: "importing", segmentId: "seg_1" } })).toEqual({
      ...progress,
      phase: "importing",
      segmentId: "seg_1",
    });
    expect(importProgressOf({ progress: 0 })).toBeUndefined();
    expect(importProgressOf({ progress: { rowsRead: "many" } })).toBeUndefined();
    expect(importResultOf({ returnvalue: { status: "imported", created: 2, known: 1 } })).toEqual({
      status: "imported",
      created: 2,
      known: 1,
    });
    expect(importResultOf({ returnvalue: null })).toBeUndefined();
    expect(campaignResultOf({ returnvalue: { id: "cmp_1", created: true } })).toEqual({
      id: "cmp_1",
      created: true,
    });
    expect(campaignResultOf({ returnvalue: { canceled: true } })).toEqual({ canceled: true });
    expect(campaignResultOf({ returnvalue: { id: 7 } })).toBeUndefined();
    expect(followUpResultOf({ returnvalue: { contacts: 0 } })).toEqual({ contacts: 0 });
  });

  it("names a failed follow-ups job by its kind and campaign, a job queued with the older flags too", async () => {
    const keys = redisKeys(prefix());
    const queues = createQueues({ connection: redis, keys });
    opened.push(queues);
    await queues.followUps.add(
      "resume",
      { job: "shared", campaignId: "cmp_1" },
      { jobId: "resume-cmp_1", attempts: 1 },
    );
    await queues.followUps.add(
      "cmp_2 resume",
      { job: "shared", campaignId: "cmp_2", resume: true },
      { jobId: "r2", attempts: 1 },
    );
    await queues.followUps.add(
      "start-check",
      { job: "shared", campaignId: "cmp_3" },
      { jobId: "sc3", attempts: 1 },
    );
    // A worker taking jobs by hand: each fails once for good.
    const worker = new Worker(QUEUE_NAMES.followUps, null, {
      connection: redis,
      prefix: queuePrefix(keys, "followUps"),
    });
    for (let n = 0; n < 3; n++) {
      const job = await worker.getNextJob("t");
      await job!.moveToFailed(new Error("boom"), "t");
    }
    await worker.close();
    const failed = await queueFailures(queues, ["followUps"]);
    expect(failed.map((f) => f.name).sort()).toEqual(["resume cmp_1", "resume cmp_2", "start-check cmp_3"]);
  });
});
