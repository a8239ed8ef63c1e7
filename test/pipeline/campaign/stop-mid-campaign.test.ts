import { describe, expect, it } from "vitest";
import { JobDefinition } from "../../../src/config/job-definition.ts";
import { campaignKey } from "../../../src/pipeline/campaign/lifecycle.ts";
import { fileIntoOwnSegment } from "../../../src/pipeline/campaign/own-segment.ts";
import { type StopCheckDeps, stopsDue } from "../../../src/pipeline/campaign/stop-checks.ts";
import { createStopStore } from "../../../src/pipeline/campaign/stop-store.ts";
import { createContactLedger } from "../../../src/pipeline/contacts/contact-ledger.ts";
import { createCampaignStore } from "../../../src/pipeline/results/campaign-store.ts";
import { emptyTotals } from "../../../src/pipeline/results/campaign-totals.ts";
import type { CampaignInfo } from "../../../src/pipeline/results/model.ts";
import { createCallFrequency } from "../../../src/pipeline/stores/call-frequency.ts";
import { loadDoNotCallList } from "../../../src/pipeline/stores/dnc/load-list.ts";
import { createSuppressionList } from "../../../src/pipeline/stores/suppression.ts";
import type { StoredCampaign } from "../../../src/simulator/store.ts";
import { phoneOf } from "../../support/daemon.ts";
import { validAssistant, validDialer } from "../../support/fixtures.ts";
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
    const deps: StopCheckDeps = {
      client: t.client,
      redis,
      keys,
      leaseMs: 30_000,
      ledger,
      store,
      stops: createStopStore(redis, keys),
      suppression: createSuppressionList(redis, keys),
      frequency: createCallFrequency(redis, keys, { keepMs: 86_400_000 }),
    };
    const name = `dnc-${keys.prefix}`;
    async function* rows() {
      for (const [index, phone] of phones.entries()) yield { phone, index, contact: { phone } };
    }
    const { segmentId } = await fileIntoOwnSegment(
      { name, description: "a campaign's own segment" },
      rows(),
      { owner: "test", country: "US" },
      deps,
    );
    // Made, starting in an hour: the service lists no audience yet, vcw has no record of it.
    const scheduledAt = new Date(Date.now() + 3_600_000).toISOString();
    const made = await t.client.campaigns.create({
      campaigns_name: name,
      assistant_id: (await t.client.assistants.create(validAssistant())).id!,
      contacts_id: segmentId,
      dialer_id: (await t.client.dialers.create(validDialer())).id!,
      scheduled_at: scheduledAt,
    });
    const info: CampaignInfo = {
      id: made.id!,
      name,
      job: "j",
      file: "f.csv",
      sha256: "sha",
      gen: 0,
      segmentId,
      scheduledAt,
      state: "active",
      attempt: 0,
      followUps: [],
    };
    await store.register(info, Date.now());
    return { keys, deps, phones, info, segmentId, made };
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

    const def = JobDefinition.parse({
      name: "j",
      inbox: "inbox/j",
      segment: { name: "j" },
      contacts: { country: "US" },
      campaign: { assistant: { id: "ast_1" }, dialer: { id: "dlr_1" } },
    });
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
      redis,
      keys,
      leaseMs: 30_000,
      ledger,
      store,
      stops: createStopStore(redis, keys),
      suppression: createSuppressionList(redis, keys),
      frequency,
    };
    const phones = [0, 1, 2].map((i) => phoneOf(950 + i));
    const name = `cap-${keys.prefix}`;
    async function* rows() {
      for (const [index, phone] of phones.entries()) yield { phone, index, contact: { phone } };
    }
    const { segmentId } = await fileIntoOwnSegment(
      { name, description: "own" },
      rows(),
      { owner: "t", country: "US" },
      deps,
    );
    const now = Date.now();
    const made = await t.client.campaigns.create({
      campaigns_name: name,
      assistant_id: (await t.client.assistants.create(validAssistant())).id!,
      contacts_id: segmentId,
      dialer_id: (await t.client.dialers.create(validDialer())).id!,
      scheduled_at: new Date(now + 3_600_000).toISOString(),
    });
    const info: CampaignInfo = {
      id: made.id!,
      name,
      job: "j",
      file: "f.csv",
      sha256: "sha",
      gen: 0,
      segmentId,
      scheduledAt: new Date(now + 3_600_000).toISOString(),
      state: "active",
      attempt: 0,
      followUps: [],
      callUntil: now + 5 * 3_600_000,
    };
    await store.register(info, now);
    const def = JobDefinition.parse({
      name: "j",
      inbox: "inbox/j",
      segment: { name: "j" },
      contacts: { country: "US" },
      campaign: { assistant: { id: "ast_1" }, dialer: { id: "dlr_1" } },
      calling: { rules: ["custom"], caps: { per24h: 1 } },
    });
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
