import { describe, expect, it } from "vitest";
import { redisKeys } from "../../../src/lib/redis-keys.ts";
import { cancelCampaigns } from "../../../src/pipeline/campaign/cancel-campaign.ts";
import { type CampaignRequest, campaignKey } from "../../../src/pipeline/campaign/lifecycle.ts";
import { createControls } from "../../../src/pipeline/stores/controls.ts";
import { createCreateMemo } from "../../../src/pipeline/stores/create-memo.ts";
import { campaignCreateKeys } from "../../support/create-keys.ts";
import { useRedis } from "../../support/redis.ts";

describe("cancelCampaigns: canceled only when no campaign can exist", () => {
  const { redis, prefix } = useRedis();

  const request = (sha256: string): CampaignRequest => ({
    job: "j",
    sha256,
    gen: 0,
    original: "a.csv",
    segmentId: "seg_1",
    attempt: 0,
    name: `calls #${sha256}`,
  });
  const ref = (data: CampaignRequest, removed: string[]) => ({
    id: `campaign-${data.sha256}`,
    data,
    remove: async () => {
      removed.push(data.sha256);
    },
  });

  const port = (keys: ReturnType<typeof redisKeys>) => ({
    memo: createCreateMemo(redis, keys),
    controls: createControls(redis, keys),
  });

  it("none sent: canceled and taken out; sent: may exist; created: exists, with its id", async () => {
    const keys = redisKeys(prefix());
    const [none, sent, made] = [request("aaaa"), request("bbbb"), request("cccc")];
    await redis.set(campaignCreateKeys(keys, campaignKey(sent)).sent, JSON.stringify({ at: Date.now() }));
    await redis.set(campaignCreateKeys(keys, campaignKey(made)).memo, "cmp_42");
    const removed: string[] = [];
    const outcomes = await cancelCampaigns(
      port(keys),
      [none, sent, made].map((r) => ref(r, removed)),
    );
    expect(outcomes).toEqual([
      { request: "campaign-aaaa", name: "calls #aaaa", kind: "canceled", already: false },
      { request: "campaign-bbbb", name: "calls #bbbb", kind: "may-exist", why: "answer-unknown" },
      { request: "campaign-cccc", name: "calls #cccc", kind: "exists", id: "cmp_42" },
    ]);
    expect(removed).toEqual(["aaaa"]);
    // The one that may exist is marked too: if the lookup shows it was not applied, it is not created.
    const controls = createControls(redis, keys);
    expect(await controls.isCanceled(campaignKey(none))).toBe(true);
    expect(await controls.isCanceled(campaignKey(sent))).toBe(true);
    expect(await controls.isCanceled(campaignKey(made))).toBe(false);
    expect((await cancelCampaigns(port(keys), [ref(none, removed)]))[0]).toMatchObject({ already: true });
  });

  it("a create being sent now (its lock held): may exist, and it is marked canceled", async () => {
    const keys = redisKeys(prefix());
    const busy = request("dddd");
    await redis.set(campaignCreateKeys(keys, campaignKey(busy)).lock, "someone", "PX", 5_000);
    const [outcome] = await cancelCampaigns(port(keys), [ref(busy, [])], { waitMs: 200 });
    expect(outcome).toMatchObject({ kind: "may-exist", why: "create-in-flight" });
    expect(await createControls(redis, keys).isCanceled(campaignKey(busy))).toBe(true);
  });
});
