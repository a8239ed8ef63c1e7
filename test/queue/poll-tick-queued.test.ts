import { Redis } from "ioredis";
import pino from "pino";
import { afterAll, describe, expect, inject, it } from "vitest";
import { JobDefinition } from "../../src/config/job-definition.ts";
import { redisKeys } from "../../src/lib/redis-keys.ts";
import { createCampaignStore } from "../../src/pipeline/stores/campaign-store.ts";
import { pollJobId } from "../../src/queue/job-ids.ts";
import { pollTick } from "../../src/queue/poll-tick.ts";
import { closeQueues, createQueues, QUEUE_NAMES, queuePrefix } from "../../src/queue/queues.ts";
import { campaignInfo } from "../support/fixtures.ts";
import { useRedis } from "../support/redis.ts";

/**
 * A worker behind its schedule: the lease of a campaign whose poll still waits ends, and the next
 * tick claims it again. Its poll is not offered again (BullMQ would refuse the copy, after its
 * add script ran and counted it), and the campaigns without one get theirs.
 */
describe("a poll tick while polls of earlier ticks still wait", () => {
  const { redis, prefix } = useRedis();
  const connection = new Redis(inject("redisUrl"), { maxRetriesPerRequest: null });
  afterAll(() => connection.quit());

  it("adds no second poll for a campaign whose poll is queued, and one for each other campaign due", async () => {
    const p = prefix();
    const keys = redisKeys(p);
    const def = JobDefinition.parse({
      name: "behind",
      inbox: "inbox/behind",
      segment: { id: "seg_1" },
      campaign: { assistant: { id: "asst_1" }, dialer: { id: "dial_1" } },
      polling: { schedule: "*/10 * * * * *" },
    });
    const store = createCampaignStore(redis, keys);
    const registered = Date.now();
    for (const id of ["cmp_waiting", "cmp_due"])
      await store.register(campaignInfo({ id, name: id, job: def.name }), registered);
    // The tick, ten minutes on: both campaigns are due, past any start grace.
    const now = registered + 600_000;
    const queues = createQueues({ connection, keys });
    try {
      // An earlier tick's poll of cmp_waiting, no worker to take it.
      const earlier = { job: def.name, campaignId: "cmp_waiting", tick: now - 30_000, periodMs: 10_000 };
      await queues.polls.add("cmp_waiting", earlier, { jobId: pollJobId("cmp_waiting") });
      // BullMQ's id counter counts every add offered to it, refused copies too (addStandardJob's INCR).
      const counter = `${queuePrefix(keys, "polls")}:${QUEUE_NAMES.polls}:id`;
      const offered0 = Number(await redis.get(counter));

      const report = await pollTick(
        { queues, store, logger: pino({ level: "silent" }), now: () => now },
        def,
        now,
        10_000,
      );

      expect(report).toMatchObject({ due: 2, waiting: 1, stillQueued: 1 });
      expect(Number(await redis.get(counter)) - offered0).toBe(1);
      const waiting = await queues.polls.getWaiting();
      expect(waiting.map((j) => j.data.campaignId).sort()).toEqual(["cmp_due", "cmp_waiting"]);
      // The queued poll is the earlier tick's, untouched.
      expect(waiting.find((j) => j.data.campaignId === "cmp_waiting")?.data.tick).toBe(earlier.tick);
      // Both were claimed: neither is due again before the lease (two periods) ends.
      for (const id of ["cmp_waiting", "cmp_due"])
        expect(await store.nextPollOf(def.name, id)).toBe(now + 20_000);
    } finally {
      await closeQueues(queues);
    }
  });
});
