import { describe, expect, it, vi } from "vitest";
import { redisKeys } from "../../../src/lib/redis-keys.ts";
import { type PollOutcome, pollCampaign } from "../../../src/pipeline/results/poll-campaign.ts";
import type { CampaignStore } from "../../../src/pipeline/stores/campaign-store.ts";
import { usePollCampaigns } from "../../support/poll.ts";

/**
 * The poll that decides "unchanged" without the lock (decision 0078): it takes no lock and writes
 * nothing; a changed audience is fetched once and written once, under the lock, and a write landing
 * between the read without the lock and the lock is neither lost nor written over.
 */
describe("pollCampaign without the lock (real Redis, simulator with frozen time moved by hand)", () => {
  let audienceRequests = 0;
  const { t, redis, prefix, campaignOf, optionsOf } = usePollCampaigns({
    onRequest: (method, url) => {
      if (method === "POST" && url.includes("/campaign/audiences")) audienceRequests += 1;
    },
  });

  /** The store with its poll lock counted (and `before`, if given, run before the lock is asked for). */
  const counted = (store: CampaignStore, before?: () => Promise<void>) => {
    const polling = vi.fn(async (...args: Parameters<CampaignStore["polling"]>) => {
      await before?.();
      return store.polling(...args);
    });
    return { store: { ...store, polling: polling as CampaignStore["polling"] }, polling };
  };

  /** The poll's writes so far (each commit counts itself in the meta), and its stream's entries. */
  const writesOf = async (p: string, id: string) => ({
    writes: await redis.hget(redisKeys(p).campaign.meta(id), "writes"),
    events: await redis.xlen(redisKeys(p).campaign.events(id)),
  });

  /** Whether the stored records show each phone's status as the service lists it now. */
  async function storedAsListed(id: string, store: CampaignStore) {
    const listed = await t.client.campaigns.audiences(id);
    const records = await store.records(
      id,
      listed.map((e) => e.phone!),
    );
    return records.map((r) => r?.status) as unknown[];
  }
  const statusesListed = async (id: string) =>
    (await t.client.campaigns.audiences(id)).map((e) => e.status) as unknown[];

  it("an unchanged poll takes no lock and writes nothing; a changed one takes it", async () => {
    const p = prefix();
    const { id, store: plain } = await campaignOf(12, p);
    const { store, polling } = counted(plain);
    const o = { ...optionsOf(p, plain), store };
    expect(await pollCampaign(id, o)).toMatchObject({ version: 1, state: "active" });
    expect(polling).toHaveBeenCalledTimes(1); // version 0: under the lock, as before
    const before = await writesOf(p, id);
    const unchanged = await pollCampaign(id, o);
    expect(unchanged).toMatchObject({ changed: 0, version: 1, state: "active", ended: false });
    expect(unchanged.pace).toBeDefined();
    expect(polling).toHaveBeenCalledTimes(1);
    expect(await redis.exists(redisKeys(p).campaign.pollLock(id))).toBe(0);
    expect(await writesOf(p, id)).toEqual(before);

    t.sim.clock.advance(5_000);
    expect((await pollCampaign(id, o)).changed).toBeGreaterThan(0);
    expect(polling).toHaveBeenCalledTimes(2);
  });

  it("an unchanged poll with no stop in its meta never asks whether taken-out contacts make it over (a Redis round trip)", async () => {
    const p = prefix();
    const { id, store } = await campaignOf(12, p);
    const overWithWithdrawn = vi.fn(async () => false);
    const o = { ...optionsOf(p, store), overWithWithdrawn };
    await pollCampaign(id, o); // version 0: under the lock, which asks
    overWithWithdrawn.mockClear();
    expect(await pollCampaign(id, o)).toMatchObject({ changed: 0, state: "active", ended: false });
    expect(overWithWithdrawn).not.toHaveBeenCalled();
  });

  it("each poll fetches the audience once: unchanged, changed, or stuck", async () => {
    const p = prefix();
    const { id, store } = await campaignOf(12, p);
    const o = optionsOf(p, store);
    const requestsOf = async (poll: () => Promise<PollOutcome>) => {
      const from = audienceRequests;
      const outcome = await poll();
      return { outcome, requests: audienceRequests - from };
    };
    expect((await requestsOf(() => pollCampaign(id, o))).requests).toBe(1);
    expect(await requestsOf(() => pollCampaign(id, o))).toMatchObject({
      outcome: { changed: 0 },
      requests: 1,
    });
    t.sim.clock.advance(5_000);
    const changed = await requestsOf(() => pollCampaign(id, o));
    expect(changed.requests).toBe(1);
    expect(changed.outcome.changed).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 20));
    const stuck = await requestsOf(() => pollCampaign(id, { ...o, stuckAfterMs: 1 }));
    expect(stuck).toMatchObject({ outcome: { state: "stuck", ended: true }, requests: 1 });
    expect((await store.get(id))!.info.state).toBe("stuck");
  });

  it("a change written between the read without the lock and the lock is neither lost nor written over", async () => {
    const p = prefix();
    const { id, store: plain } = await campaignOf(12, p);
    const o = optionsOf(p, plain);
    await pollCampaign(id, o);
    t.sim.clock.advance(5_000);
    // This poll fetches the audience as it is now; before it asks for the lock, the calls move on
    // and another poll fetches and writes them.
    let other: PollOutcome | undefined;
    const { store } = counted(plain, async () => {
      t.sim.clock.advance(5_000);
      other = await pollCampaign(id, o);
    });
    const before = await writesOf(p, id);
    const late = await pollCampaign(id, { ...o, store });
    expect(other!.changed).toBeGreaterThan(0);
    expect(late).toMatchObject({ changed: 0, version: other!.version });
    // One commit, of the newer audience: the older one fetched first was not written over it.
    expect(await writesOf(p, id)).toEqual({
      writes: String(Number(before.writes) + 1),
      events: before.events + 1,
    });
    expect(await storedAsListed(id, plain)).toEqual(await statusesListed(id));
  });

  it("two polls at once of a changed campaign make one commit", async () => {
    const p = prefix();
    const { id, store } = await campaignOf(12, p);
    const o = optionsOf(p, store);
    await pollCampaign(id, o);
    t.sim.clock.advance(5_000);
    const before = await writesOf(p, id);
    const both = await Promise.all([pollCampaign(id, o), pollCampaign(id, o)]);
    expect(both.filter((b) => b.changed > 0)).toHaveLength(1);
    expect(await writesOf(p, id)).toEqual({
      writes: String(Number(before.writes) + 1),
      events: before.events + 1,
    });
    expect(await storedAsListed(id, store)).toEqual(await statusesListed(id));
  });
});
