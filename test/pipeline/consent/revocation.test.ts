import { describe, expect, it } from "vitest";
import { checkBeforeStart } from "../../../src/pipeline/campaign/start-check.ts";
import { pollCampaign } from "../../../src/pipeline/results/poll-campaign.ts";
import { createAuditLog } from "../../../src/pipeline/stores/audit-log.ts";
import { createConsentStore } from "../../../src/pipeline/stores/consent-store.ts";
import { phoneOf } from "../../support/daemon.ts";
import { campaignInfo, validAssistant, validDialer } from "../../support/fixtures.ts";
import { campaignOnOwnSegment, jobJ, startCheckDeps } from "../../support/own-campaign.ts";
import { STATUS_CLASSES } from "../../support/poll.ts";
import { useRedis } from "../../support/redis.ts";
import { useSimulator } from "../../support/simulator.ts";

/**
 * Issue 46 item 2: an opt-out heard on a call of one campaign revokes the number's consent for
 * every job, and the check before another campaign's start withdraws it. Every call opts out (the
 * simulator's mix says so); its time is moved by hand past the calls.
 */
describe("a call's opt-out revokes consent everywhere, up to the dial", () => {
  const t = useSimulator({
    timeScale: 1,
    campaignSegment: "fixed",
    callModel: {
      outcomes: { completed: 0, "no-answer": 0, busy: 0, voicemail: 0, failed: 0, "opted-out": 1 },
    },
  });
  const { redis, keys: freshKeys } = useRedis();

  it("is kept with the time received and the campaign; a campaign made before it, not started yet, loses the number", async () => {
    const keys = freshKeys();
    const { deps, store, suppression } = startCheckDeps(t.client, redis, keys);
    const consent = createConsentStore(redis, keys);
    const [revoked, kept] = [phoneOf(46_001), phoneOf(46_002)];
    // Campaign B (another job's, say) made first, starting in a day, calling both numbers.
    const later = await campaignOnOwnSegment(t.client, deps, `b-${keys.prefix}`, [revoked, kept], {
      startsInMs: 24 * 3_600_000,
    });
    await store.register(later.info(later.ids[0]!), Date.now());

    // Campaign A calls `revoked` now; the callee opts out.
    const segment = (await t.client.segments.create({ name: `a-${keys.prefix}` })).id!;
    await t.client.contacts.create(segment, { phone: revoked, first_name: "Ann" });
    const id = (
      await t.client.campaigns.create({
        campaigns_name: `a-${keys.prefix}`,
        assistant_id: (await t.client.assistants.create(validAssistant())).id!,
        contacts_id: segment,
        dialer_id: (await t.client.dialers.create(validDialer())).id!,
      })
    ).id!;
    await store.register(campaignInfo({ id, name: `a-${keys.prefix}`, segmentId: segment }), Date.now());
    t.sim.clock.advance(3_600_000);
    const polledAt = Date.now();
    const poll = await pollCampaign(id, {
      client: t.client,
      store,
      suppression,
      consent,
      classes: STATUS_CLASSES,
      stuckAfterMs: 7_200_000,
    });
    expect(poll).toMatchObject({ ended: true });

    const record = (await consent.read([revoked, kept])).get(revoked)!;
    expect(record.revokedVia).toBe(`opted out on a call of campaign ${id}`);
    expect(record.revokedAt).toBeGreaterThanOrEqual(polledAt);
    expect((await consent.read([kept])).size).toBe(0);

    const audit = createAuditLog(redis, keys);
    const check = await checkBeforeStart(jobJ(), later.ids[0]!, { ...deps, audit });
    expect(check?.result).toMatchObject({ phonesListed: 2, withdrawn: 1 });
    expect((await t.client.contacts.list(later.segmentId)).map((c) => c.phone)).toEqual([kept]);
    // The withdrawal is in the audit trail, as a refusal naming the campaign.
    const trail = [];
    for await (const e of audit.range(0, Date.now())) trail.push(e);
    expect(trail).toMatchObject([
      { decision: "refused", phone: revoked, campaign: later.ids[0], reason: "opted_out" },
    ]);
  });
});
