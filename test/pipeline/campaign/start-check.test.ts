import { describe, expect, it } from "vitest";
import { campaignKey } from "../../../src/pipeline/campaign/lifecycle.ts";
import { checkBeforeStart, startCheckAt } from "../../../src/pipeline/campaign/start-check.ts";
import type { CampaignInfo } from "../../../src/pipeline/model/results.ts";
import { phoneOf } from "../../support/daemon.ts";
import { validAssistant, validDialer } from "../../support/fixtures.ts";
import { campaignOnOwnSegment, jobJ, startCheckDeps } from "../../support/own-campaign.ts";
import { useRedis } from "../../support/redis.ts";
import { useSimulator } from "../../support/simulator.ts";
import { audiencePhones } from "../../support/window-close.ts";

const def = jobJ();

/** Issue 28 item 3: what the check before a campaign's start finds on the service and repairs. */
describe("the check before a campaign's start", () => {
  const t = useSimulator({ timeScale: 1, campaignSegment: "fixed" });
  const { redis, keys: freshKeys } = useRedis();

  /**
   * A campaign starting in an hour on a segment of its own holding `phones` (a phone twice: two copies);
   * `as` changes what it is registered as (a follow-up: its attempt and parent).
   */
  async function madeCampaign(
    phones: readonly string[],
    copies = 1,
    startsInMs = 3_600_000,
    as: Partial<CampaignInfo> = {},
  ) {
    const keys = freshKeys();
    const { deps, store, suppression } = startCheckDeps(t.client, redis, keys);
    const name = `check-${keys.prefix}`;
    const made = await campaignOnOwnSegment(t.client, deps, name, phones, { startsInMs, copies });
    for (const id of made.ids) await store.register({ ...made.info(id), ...as }, Date.now());
    return { deps, keys, made: made.ids, segmentId: made.segmentId, name, store, suppression };
  }

  const phonesIn = async (segmentId: string) =>
    (await t.client.contacts.list(segmentId)).map((c) => c.phone!).sort();

  it("is made a little before the start: a quarter of the settle time, 5 s at most, half the start lead at least", () => {
    expect(startCheckAt(100_000, 60_000)).toBe(95_000);
    expect(startCheckAt(100_000, 12_000, 4_000)).toBe(97_000);
    // No settle time (idempotency keys): still before the start, which the create put the lead ahead.
    expect(startCheckAt(100_000, 0, 4_000)).toBe(98_000);
  });

  it("one campaign: extra copies of a phone and contacts opted out since are deleted, once", async () => {
    const phones = [0, 1, 2, 3].map((i) => phoneOf(95_000 + i));
    const c = await madeCampaign(phones);
    // A copy the ledger never knew of (a create applied late) and an opt-out since the import.
    await t.client.contacts.create(c.segmentId, { phone: phones[1]! });
    await c.suppression.add([phones[2]!]);
    const check = await checkBeforeStart(def, c.made[0]!, c.deps);
    expect(check?.result).toMatchObject({
      campaignsListed: 1,
      contactsListed: 5,
      phonesListed: 4,
      duplicatesRemoved: 1,
      withdrawn: 1,
      campaignsRepaired: 0,
    });
    expect(check?.repair).toBeUndefined();
    expect(await phonesIn(c.segmentId)).toEqual([phones[0], phones[1], phones[3]].sort());
    expect((await c.store.get(c.made[0]!))?.startCheck?.duplicatesRemoved).toBe(1);
    // Again (the job retried): the same answer, nothing deleted twice.
    const again = await checkBeforeStart(def, c.made[0]!, c.deps);
    expect(again?.result).toEqual(check?.result);
  });

  it("two campaigns of the name: their segment emptied, one fresh segment of the same people, one fresh campaign asked for", async () => {
    const phones = [0, 1, 2].map((i) => phoneOf(96_000 + i));
    const c = await madeCampaign(phones, 2);
    await t.client.contacts.create(c.segmentId, { phone: phones[0]!, first_name: "Copy" });
    const check = await checkBeforeStart(def, c.made[1]!, c.deps);
    expect(check?.result).toMatchObject({
      campaignsListed: 2,
      duplicatesRemoved: 1,
      campaignsRepaired: 1,
      repairedInto: `${c.name} repaired 1`,
    });
    expect(await phonesIn(c.segmentId)).toEqual([]);
    expect(check?.emptied?.sort()).toEqual([...c.made].sort());
    const repair = check!.repair!;
    expect(repair).toMatchObject({ name: `${c.name} repaired 1`, repair: 1, attempt: 0, job: "j" });
    expect(repair.notBefore).toBe(Date.parse((await c.store.get(c.made[0]!))!.info.scheduledAt));
    expect(await phonesIn(repair.segmentId)).toEqual([...phones].sort());
    expect(campaignKey(repair)).toBe("j:sha:0:0:repair:1");
    // The other copy's check reads the same answer: one repair, not two.
    const other = await checkBeforeStart(def, c.made[0]!, c.deps);
    expect(other?.repair).toEqual(repair);
    expect(await phonesIn(repair.segmentId)).toEqual([...phones].sort());
  });

  it("a follow-up's repair keeps its parent: the fresh campaign is named in the parent's follow-ups as the copies were", async () => {
    const phones = [0, 1].map((i) => phoneOf(96_100 + i));
    const c = await madeCampaign(phones, 2, 3_600_000, { attempt: 1, parentId: "cmp_parent" });
    const repair = (await checkBeforeStart(def, c.made[1]!, c.deps))!.repair!;
    expect(repair).toMatchObject({
      name: `${c.name} repaired 1`,
      repair: 1,
      attempt: 1,
      parentId: "cmp_parent",
    });
  });

  it("a repair cut short after emptying the segment goes on from the contacts it kept, even once the copies started", async () => {
    const phones = [0, 1].map((i) => phoneOf(97_200 + i));
    const c = await madeCampaign(phones, 2, 2_000);
    const memo = c.keys.startCheck("j:sha:0:0");
    // What the first attempt left: the contacts kept, then the segment emptied; then it died.
    const kept = phones.map((phone) => ({ phone, contact: { phone } }));
    await redis.set(c.keys.keepOf(memo), JSON.stringify(kept));
    for (const listed of await t.client.contacts.list(c.segmentId))
      await t.client.contacts.delete(listed.id!);
    // The copies' start passes: the simulator's clock moved past it, rather than waited for.
    t.sim.clock.advance(2_100);
    const check = await checkBeforeStart(def, c.made[0]!, c.deps);
    expect(check?.result).toMatchObject({ campaignsListed: 2, startedBeforeCheck: 2, campaignsRepaired: 1 });
    expect(await phonesIn(check!.repair!.segmentId)).toEqual([...phones].sort());
  });

  it("a late copy started before the check: the copy not started is emptied, the started one adopted", async () => {
    const phones = [0, 1, 2].map((i) => phoneOf(97_300 + i));
    const c = await madeCampaign(phones);
    // The held create, applied after its start time had passed: the service starts it at once.
    const late = await t.client.campaigns.create({
      campaigns_name: c.name,
      assistant_id: (await t.client.assistants.create(validAssistant())).id!,
      contacts_id: c.segmentId,
      dialer_id: (await t.client.dialers.create(validDialer())).id!,
      scheduled_at: new Date(Date.now() - 1_000).toISOString(),
    });
    const check = await checkBeforeStart(def, c.made[0]!, c.deps);
    expect(check?.result).toMatchObject({ campaignsListed: 2, startedBeforeCheck: 1, copiesAdopted: 1 });
    expect(check?.result.calledTwice).toBeUndefined();
    expect(check?.adopt).toEqual([late.id]);
    expect(check?.emptied).toEqual([c.made[0]]);
    expect(check?.repair).toBeUndefined();
    expect(await phonesIn(c.segmentId)).toEqual([]);
    expect(await audiencePhones(t.client, late.id!)).toHaveLength(3);
  });

  it("a campaign started before its check is left alone: too late to repair, said so", async () => {
    const phones = [0, 1].map((i) => phoneOf(97_100 + i));
    const c = await madeCampaign(phones, 2, -1_000);
    await t.client.contacts.create(c.segmentId, { phone: phones[0]! });
    const check = await checkBeforeStart(def, c.made[0]!, c.deps);
    expect(check?.result).toMatchObject({
      campaignsListed: 2,
      startedBeforeCheck: 2,
      duplicatesRemoved: 0,
      campaignsRepaired: 0,
      // Both copies call both phones: the other copy is counted, and so are the calls twice.
      copiesAdopted: 1,
      calledTwice: 2,
    });
    expect(check?.adopt).toEqual(c.made.filter((id) => id !== c.made[0]));
    expect(check?.repair).toBeUndefined();
    expect(await phonesIn(c.segmentId)).toHaveLength(3);
  });

  it("a campaign vcw does not keep is not checked", async () => {
    const c = await madeCampaign([phoneOf(97_000)]);
    expect(await checkBeforeStart(def, "cmp_unknown", c.deps)).toBeUndefined();
  });
});
