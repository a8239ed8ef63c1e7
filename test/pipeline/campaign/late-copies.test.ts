import { describe, expect, it } from "vitest";
import { sharedCampaignListing } from "../../../src/pipeline/campaign/campaign-listing.ts";
import { createCampaign } from "../../../src/pipeline/campaign/create-use-case.ts";
import { type LateCopyDeps, lookForLateCopies } from "../../../src/pipeline/campaign/late-copies.ts";
import { deletesTakeMs } from "../../../src/pipeline/campaign/segment-listing.ts";
import { lateLookAt, startCheckAt } from "../../../src/pipeline/campaign/start-check.ts";
import { createCampaignStore } from "../../../src/pipeline/stores/campaign-store.ts";
import { createContactLedger } from "../../../src/pipeline/stores/contact-ledger.ts";
import { createCreateMemo } from "../../../src/pipeline/stores/create-memo.ts";
import { createStartCheckStore } from "../../../src/pipeline/stores/start-check-store.ts";
import { phoneOf } from "../../support/daemon.ts";
import { validAssistant, validDialer } from "../../support/fixtures.ts";
import { campaignOnOwnSegment, jobJ } from "../../support/own-campaign.ts";
import { useRedis } from "../../support/redis.ts";
import { useSimulator } from "../../support/simulator.ts";
import { audiencePhones } from "../../support/window-close.ts";

const def = jobJ();

/** Decision 0065: a copy of a campaign's name landing after its check, found by the looks after it. */
describe("the look for late copies after the check", () => {
  const t = useSimulator({ timeScale: 1, campaignSegment: "fixed" });
  const { redis, keys: freshKeys } = useRedis();

  /** vcw's campaign on a segment of its own, registered; `startsInMs` < 0: started already. */
  /** The look's stores on fresh keys, and what filing a segment of its own takes besides. */
  function stores() {
    const keys = freshKeys();
    const store = createCampaignStore(redis, keys);
    const deps: LateCopyDeps = {
      client: t.client,
      store,
      startChecks: createStartCheckStore(redis, keys),
      listCampaigns: sharedCampaignListing(t.client, { now: Date.now }),
      now: Date.now,
    };
    const own = {
      ...deps,
      memo: createCreateMemo(redis, keys),
      leaseMs: 30_000,
      ledger: createContactLedger(redis, { keys, leaseMs: 30_000 }),
    };
    return { keys, store, deps, own };
  }

  async function kept(phones: readonly string[], startsInMs: number) {
    const { keys, store, deps, own } = stores();
    const name = `late-${keys.prefix}`;
    const made = await campaignOnOwnSegment(t.client, own, name, phones, { startsInMs, copies: 1 });
    const id = made.ids[0]!;
    await store.register(made.info(id), Date.now());
    // The held create, applied after its start had passed: the service starts it as it lands.
    const land = async () =>
      t.client.campaigns.create({
        campaigns_name: name,
        assistant_id: (await t.client.assistants.create(validAssistant())).id!,
        contacts_id: made.segmentId,
        dialer_id: (await t.client.dialers.create(validDialer())).id!,
        scheduled_at: new Date(Date.now() - 1_000).toISOString(),
      });
    const look = async () => lookForLateCopies(def, (await store.get(id))!, deps, Date.now());
    return { id, segmentId: made.segmentId, store, deps, land, look };
  }

  it("is made half way from the check to the start", () => {
    expect(startCheckAt(100_000, 8_000)).toBe(98_000);
    expect(lateLookAt(100_000, 8_000)).toBe(99_000);
    expect(lateLookAt(100_000, 60_000)).toBe(97_500);
  });

  it("is queued, with the check, ahead of the start by its deletes at the shared rate (decision 0081)", () => {
    // 50 contacts at 20 a second: 2.5 s of deletes before the half lead of 2.5 s.
    const ahead = 100_000 - deletesTakeMs(50, 20);
    expect(startCheckAt(ahead, 60_000)).toBe(92_500);
    expect(lateLookAt(ahead, 60_000)).toBe(95_000);
    expect(deletesTakeMs(0, 20)).toBe(0);
  });

  it("finds nothing, and writes nothing, when the name is listed once", async () => {
    const c = await kept([phoneOf(98_100)], 3_600_000);
    expect(await c.look()).toBeUndefined();
    expect((await c.store.get(c.id))?.startCheck).toBeUndefined();
  });

  it("a copy landing before the own copy's start: its segment emptied, the late one adopted, once", async () => {
    const phones = [0, 1, 2].map((i) => phoneOf(98_200 + i));
    const c = await kept(phones, 3_600_000);
    const late = await c.land();
    const found = await c.look();
    expect(found).toMatchObject({ adopted: [late.id], emptied: true, calledTwice: [] });
    expect(found?.result).toMatchObject({ copiesAdopted: 1, adoptedAfterCheck: 1, contactsListed: 3 });
    expect(found?.result.calledTwice).toBeUndefined();
    expect(await t.client.contacts.list(c.segmentId)).toEqual([]);
    expect(await audiencePhones(t.client, late.id!)).toHaveLength(3);
    expect((await c.store.get(late.id!))?.info).toMatchObject({ name: (await c.store.get(c.id))?.info.name });
    expect((await c.store.get(c.id))?.info.state).toBe("finished");
    // Known now: the adopted copy's own look (at its polls) finds nothing.
    expect(await lookForLateCopies(def, (await c.store.get(late.id!))!, c.deps)).toBeUndefined();
  });

  it("a copy landing after the own copy started: adopted, nothing deleted, its calls twice counted", async () => {
    const phones = [0, 1].map((i) => phoneOf(98_300 + i));
    const c = await kept(phones, -1_000);
    const late = await c.land();
    const found = await c.look();
    expect(found).toMatchObject({ adopted: [late.id], emptied: false });
    expect(found?.calledTwice.sort()).toEqual([...phones].sort());
    expect(found?.result).toMatchObject({ copiesAdopted: 1, adoptedAfterCheck: 1, calledTwice: 2 });
    expect(await t.client.contacts.list(c.segmentId)).toHaveLength(2);
    expect((await c.store.get(c.id))?.startCheck?.calledTwice).toBe(2);
    expect(await c.look()).toBeUndefined();
  });

  it("a follow-up's late copy is named in its parent's follow-ups, beside the copy it replaces", async () => {
    const { keys, store, deps, own } = stores();
    // The parent, ended, and its follow-up's segment (no campaign yet).
    const parentName = `late-${keys.prefix}`;
    const parent = await campaignOnOwnSegment(t.client, own, parentName, [phoneOf(98_400)], {
      startsInMs: -60_000,
    });
    const parentId = parent.ids[0]!;
    await store.register({ ...parent.info(parentId), state: "finished" }, Date.now());
    const name = `${parentName} follow-up 1`;
    const phones = [0, 1].map((i) => phoneOf(98_410 + i));
    const { segmentId } = await campaignOnOwnSegment(t.client, own, name, phones, {
      startsInMs: 0,
      copies: 0,
    });
    const assistantId = (await t.client.assistants.create(validAssistant())).id!;
    const dialerId = (await t.client.dialers.create(validDialer())).id!;
    // The follow-up made as the follow-up processor makes it: registered, named on its parent.
    const made = await createCampaign(
      {
        client: t.client,
        memo: own.memo,
        store,
        controls: { isCanceled: async () => false, isPaused: async () => false },
        records: async () => ({ assistantId, dialerId }),
        scheduleStartCheck: async () => {},
        leaseMs: 30_000,
        rememberTrace: async () => {},
        now: Date.now,
      },
      def,
      {
        job: "j",
        sha256: "sha",
        gen: 0,
        original: "f.csv",
        segmentId,
        attempt: 1,
        name,
        parentId,
        notBefore: Date.now() + 3_600_000,
      },
      { canWait: false },
    );
    if (made.kind !== "created") throw new Error(`follow-up not created: ${made.kind}`);
    expect((await store.get(parentId))?.info.followUps).toEqual([made.id]);
    // Its held create lands after its check, started at once.
    const late = await t.client.campaigns.create({
      campaigns_name: name,
      assistant_id: assistantId,
      contacts_id: segmentId,
      dialer_id: dialerId,
      scheduled_at: new Date(Date.now() - 1_000).toISOString(),
    });
    const found = await lookForLateCopies(def, (await store.get(made.id))!, deps, Date.now());
    expect(found).toMatchObject({ adopted: [late.id], emptied: true });
    // The parent names both: the emptied copy (ended, no call) and the copy that calls its people.
    expect((await store.get(parentId))?.info.followUps).toEqual([made.id, late.id]);
    // Looked again (another worker, a poll): named once.
    await lookForLateCopies(def, (await store.get(late.id!))!, deps, Date.now());
    expect((await store.get(parentId))?.info.followUps).toEqual([made.id, late.id]);
  });
});
