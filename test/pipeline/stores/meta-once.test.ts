import { describe, expect, it } from "vitest";
import type { CampaignInfo, StartCheckResult } from "../../../src/pipeline/model/results.ts";
import { createCampaignStore } from "../../../src/pipeline/stores/campaign-store.ts";
import { metaReadOnce } from "../../../src/pipeline/stores/meta-once.ts";
import { type CampaignStop, createStopStore } from "../../../src/pipeline/stores/stop-store.ts";
import { useRedis } from "../../support/redis.ts";

const info = (id: string): CampaignInfo => ({
  id,
  name: `meta-once ${id}`,
  job: "meta-once",
  file: "leads.csv",
  sha256: "0".repeat(64),
  gen: 0,
  segmentId: "seg-1",
  scheduledAt: "2026-11-29T09:00:00Z",
  state: "active",
  attempt: 0,
  followUps: [],
});

const check: StartCheckResult = {
  at: "2026-11-29T09:00:00Z",
  campaignsListed: 1,
  contactsListed: 12,
  phonesListed: 12,
  duplicatesRemoved: 0,
  withdrawn: 0,
  campaignsRepaired: 0,
};

const stopAt = (at: number): CampaignStop => ({
  reason: "operator",
  at,
  reasons: ["operator"],
  withdrawn: 0,
  flagged: 0,
  calledAfter: 0,
  honoured: "n/a",
  ranPastWindow: false,
  handBack: false,
});

/** The stops after a poll read the campaign's meta once: every read the same as the stores' own. */
describe("a campaign's meta read once for the stops after a poll", () => {
  const { redis, keys } = useRedis();

  const setUp = async (id: string, k = keys()) => {
    const store = createCampaignStore(redis, k);
    const stops = createStopStore(redis, k);
    await store.register(info(id), 1_000);
    await redis.hset(k.campaign.meta(id), "callUntil", "5000");
    await stops.set(id, stopAt(2_000));
    await stops.request(id, 3_000);
    let reads = 0;
    const counted = {
      ...store,
      metaOf: (campaignId: string) => {
        reads += 1;
        return store.metaOf(campaignId);
      },
    };
    return { store, stops, counted, reads: () => reads, k };
  };

  it("serves the campaign, its stop, the operator's request and callUntil from one read, as the stores read them", async () => {
    const { store, stops, counted, reads } = await setUp("cmp-once-1");
    const once = metaReadOnce(counted, stops, "cmp-once-1");

    expect(await once.store.get("cmp-once-1")).toEqual(await store.get("cmp-once-1"));
    expect(await once.stops.get("cmp-once-1")).toEqual(await stops.get("cmp-once-1"));
    expect(await once.stops.requested("cmp-once-1")).toBe(3_000);
    expect(await once.stops.callUntil("cmp-once-1")).toBe(5_000);
    expect(await once.stops.get("cmp-once-1")).toEqual(stopAt(2_000));
    expect(reads()).toBe(1);
  });

  it("a write through either store drops what was read: the next read sees the write", async () => {
    const { stops, counted, reads } = await setUp("cmp-once-2");
    const once = metaReadOnce(counted, stops, "cmp-once-2");

    expect(await once.stops.requested("cmp-once-2")).toBe(3_000);
    await once.stops.done("cmp-once-2");
    expect(await once.stops.requested("cmp-once-2")).toBeUndefined();
    await once.stops.set("cmp-once-2", stopAt(4_000));
    expect((await once.stops.get("cmp-once-2"))?.at).toBe(4_000);
    await once.store.noteStartCheck("cmp-once-2", check);
    expect((await once.store.get("cmp-once-2"))?.startCheck).toEqual(check);
    expect(reads()).toBe(4);
  });

  it("another campaign's reads go to Redis as before, and a failed read is not kept", async () => {
    const { stops, counted, reads, k } = await setUp("cmp-once-3");
    const other = await setUp("cmp-once-4", k);
    const once = metaReadOnce(counted, stops, "cmp-once-3");

    expect((await once.stops.get("cmp-once-4"))?.at).toBe(2_000);
    expect(reads() + other.reads()).toBe(0);

    let failures = 1;
    const flaky = metaReadOnce(
      {
        ...counted,
        metaOf: (id: string) =>
          failures-- > 0 ? Promise.reject(new Error("connection lost")) : counted.metaOf(id),
      },
      stops,
      "cmp-once-3",
    );
    await expect(flaky.stops.callUntil("cmp-once-3")).rejects.toThrow("connection lost");
    expect(await flaky.stops.callUntil("cmp-once-3")).toBe(5_000);
  });
});
