import { describe, expect, it } from "vitest";
import { emptyTotals } from "../../../src/pipeline/model/campaign-totals.ts";
import type { CampaignInfo } from "../../../src/pipeline/model/results.ts";
import { createCampaignStore } from "../../../src/pipeline/stores/campaign-store.ts";
import { useRedis } from "../../support/redis.ts";

const info = (id: string): CampaignInfo => ({
  id,
  name: `registry ${id}`,
  job: "registry",
  file: "leads.csv",
  sha256: "f".repeat(64),
  gen: 0,
  segmentId: "seg-1",
  scheduledAt: "2026-11-30T09:00:00Z",
  state: "active",
  attempt: 0,
  followUps: [],
});

/** Issue 48: a registered campaign keeps only what has no default (a campaign waits a day in 3 KB). */
describe("the campaign registry", () => {
  const { redis, keys } = useRedis();

  it("a registered campaign reads as never polled: empty totals, version 0, last change at its registration", async () => {
    const k = keys();
    const store = createCampaignStore(redis, k);
    await store.register(info("cmp-reg-1"), 1_000);
    expect(await store.get("cmp-reg-1")).toEqual({
      info: info("cmp-reg-1"),
      totals: emptyTotals(),
      version: 0,
      digest: "",
      createdAt: 1_000,
      lastChangeAt: 1_000,
      endedAt: 0,
      sentVersion: 0,
    });
    // Registered again (a retried job): nothing changes, the first time kept.
    await store.register(info("cmp-reg-1"), 9_000);
    expect((await store.get("cmp-reg-1"))?.lastChangeAt).toBe(1_000);
    expect(Object.keys(await redis.hgetall(k.campaign.meta("cmp-reg-1"))).sort()).toEqual([
      "createdAt",
      "info",
    ]);
  });

  it("a progress mark is written over the default and read back", async () => {
    const k = keys();
    const store = createCampaignStore(redis, k);
    await store.register(info("cmp-reg-2"), 1_000);
    expect(await store.markSent("cmp-reg-2", 3)).toBe(true);
    expect((await store.get("cmp-reg-2"))?.sentVersion).toBe(3);
    expect(await store.markSent("cmp-reg-2", 3)).toBe(false);
  });
});
