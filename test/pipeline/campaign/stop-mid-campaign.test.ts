import { describe, expect, it } from "vitest";
import { campaignKey } from "../../../src/pipeline/campaign/lifecycle.ts";
import { stopCampaign } from "../../../src/pipeline/campaign/stopping/stop-campaign.ts";
import { type StopCheckDeps, stopsDue } from "../../../src/pipeline/campaign/stopping/stop-checks.ts";
import { emptyTotals } from "../../../src/pipeline/model/campaign-totals.ts";
import type { CampaignInfo } from "../../../src/pipeline/model/results.ts";
import { createAuditLog } from "../../../src/pipeline/stores/audit-log.ts";
import { createCallFrequency } from "../../../src/pipeline/stores/call-frequency.ts";
import { createCampaignStore } from "../../../src/pipeline/stores/campaign-store.ts";
import { createContactLedger } from "../../../src/pipeline/stores/contact-ledger.ts";
import { createCreateMemo } from "../../../src/pipeline/stores/create-memo.ts";
import { loadDoNotCallList } from "../../../src/pipeline/stores/dnc/load-list.ts";
import { createStopStore } from "../../../src/pipeline/stores/stop-store.ts";
import { createSuppressionList } from "../../../src/pipeline/stores/suppression.ts";
import type { StoredCampaign } from "../../../src/simulator/store.ts";
import { phoneOf } from "../../support/daemon.ts";
import { campaignOnOwnSegment, jobJ } from "../../support/own-campaign.ts";
import { useRedis } from "../../support/redis.ts";
import { useSimulator } from "../../support/simulator.ts";

/**
 * Issue 31 item 3, after the start: the mid-campaign check covers the members of the campaign's
 * segment the service has listed no call for yet (no record: not dialled), not only its polled
 * records, so a number put on a do-not-call list before its dial is taken out and never called.
 */
describe("a started campaign's numbers that may no longer be called", () => {
  const t = useSimulator({ timeScale: 1, campaignSegment: "fixed" });
  const { redis, keys: freshKeys } = useRedis();

  /** A campaign of five numbers in a segment of its own, made to start in an hour: no record yet. */
  async function madeCampaign(from: number) {
    const keys = freshKeys();
    const ledger = createContactLedger(redis, { keys, leaseMs: 30_000 });
    const store = createCampaignStore(redis, keys);
    const phones = [0, 1, 2, 3, 4].map((i) => phoneOf(from + i));
    const deps = {
      client: t.client,
      memo: createCreateMemo(redis, keys),
      leaseMs: 30_000,
      ledger,
      store,
      stops: createStopStore(redis, keys),
      suppression: createSuppressionList(redis, keys),
      frequency: createCallFrequency(redis, keys, { keepMs: 86_400_000 }),
      audit: createAuditLog(redis, keys),
    } satisfies StopCheckDeps;
    const name = `dnc-${keys.prefix}`;
    // Made, starting in an hour: the service lists no audience yet, vcw has no record of it.
    const made = await campaignOnOwnSegment(t.client, deps, name, phones, { startsInMs: 3_600_000 });
    const info = made.info(made.ids[0]!);
    const segmentId = made.segmentId;
    await store.register(info, Date.now());
    return { keys, deps, phones, info, segmentId, made: { id: made.ids[0] } };
  }

  it("takes a number listed since the campaign was made out of its segment before any record exists", async () => {
    const { keys, deps, phones, info, segmentId, made } = await madeCampaign(900);
    // Listed meanwhile (vcw suppress import): the fourth number.
    async function* listed() {
      yield { line: 1, phone: phones[3]! };
    }
    await loadDoNotCallList(redis, keys, listed(), {
      source: "ftc",
      file: "ftc.txt",
      expiresInMs: undefined,
    });

    const def = jobJ();
    const stops = await stopsDue(def, { info, totals: emptyTotals() }, deps, Date.now());
    expect(stops).toMatchObject([{ reason: "opted-out", state: "stopped", taken: 1 }]);
    const left = (await t.client.contacts.list(segmentId)).map((c) => c.phone).sort();
    expect(left).toEqual(phones.filter((p) => p !== phones[3]).sort());
    // At its start the service draws its audience from the segment: the listed number is not in it.
    t.sim.clock.advance(2 * 3_600_000);
    await t.client.campaigns.audiences(made.id!);
    const sim = t.sim.store.get<StoredCampaign>("campaigns", made.id!);
    expect(sim.audience!.map((m) => m.contact.phone)).not.toContain(phones[3]);
    expect(sim.audience).toHaveLength(4);
    // The trail says why it was not called, once however often the stop runs again (issue 46 item 3).
    await stopsDue(def, { info, totals: emptyTotals() }, deps, Date.now() + 20_000);
    const trail = [];
    for await (const e of deps.audit.range(0, Date.now() + 60_000)) trail.push(e);
    expect(trail.map((e) => [e.decision, e.phone, e.campaign, e.reason])).toEqual([
      ["refused", phones[3], info.id, "opted-out"],
    ]);
    expect(trail[0]!.message).toMatch(/taken out of the running campaign before it was dialled/);
  });

  it("a standing segment's flagged contact is no refusal: it stays, and the trail says nothing of it", async () => {
    const { deps, phones, info } = await madeCampaign(950);
    const def = jobJ();
    const statuses = { pending: def.polling.statuses.pending, inFlight: def.polling.inFlight };
    const r = { reason: "opted-out" as const, phones: new Set([phones[1]!]), handBack: false, statuses };
    expect(await stopCampaign(info.id, { ...r, ownSegment: false, now: Date.now() }, deps)).toMatchObject({
      taken: 1,
    });
    const trail = [];
    for await (const e of deps.audit.range(0, Date.now() + 60_000)) trail.push(e);
    expect(trail).toEqual([]);
  });
});

describe("a cap reached mid-campaign (the overCap seam, wired)", () => {
  const t = useSimulator({ timeScale: 1, campaignSegment: "fixed" });
  const { redis, keys: freshKeys } = useRedis();

  it("takes out a number another campaign's reservation put over the job's cap since this one was made", async () => {
    const keys = freshKeys();
    const ledger = createContactLedger(redis, { keys, leaseMs: 30_000 });
    const store = createCampaignStore(redis, keys);
    const frequency = createCallFrequency(redis, keys, { keepMs: 86_400_000 });
    const deps: StopCheckDeps = {
      client: t.client,
      memo: createCreateMemo(redis, keys),
      leaseMs: 30_000,
      ledger,
      store,
      stops: createStopStore(redis, keys),
      suppression: createSuppressionList(redis, keys),
      frequency,
    };
    const phones = [0, 1, 2].map((i) => phoneOf(950 + i));
    const name = `cap-${keys.prefix}`;
    const now = Date.now();
    const made = await campaignOnOwnSegment(t.client, deps, name, phones, { startsInMs: 3_600_000 });
    const info: CampaignInfo = { ...made.info(made.ids[0]!), callUntil: now + 5 * 3_600_000 };
    const segmentId = made.segmentId;
    await store.register(info, now);
    const def = jobJ({ calling: { rules: ["custom"], caps: { per24h: 1 } } });
    // This campaign holds each number for its window; another job (no caps of its own) reserves
    // the second number for this evening.
    for (const phone of phones)
      await frequency.reserve(phone, campaignKey(info), now + 3_600_000, 0, [], false, now + 5 * 3_600_000);
    expect(await frequency.reserve(phones[1]!, "other:sha:0:0", now + 8 * 3_600_000, 0, [])).toBe("ok");
    const stops = await stopsDue(def, { info, totals: emptyTotals() }, deps, now);
    expect(stops).toMatchObject([{ reason: "frequency-cap", state: "stopped", taken: 1 }]);
    const left = (await t.client.contacts.list(segmentId)).map((c) => c.phone).sort();
    expect(left).toEqual([phones[0], phones[2]].sort());
  });
});
