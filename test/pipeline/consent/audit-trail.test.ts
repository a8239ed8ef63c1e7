import { describe, expect, it } from "vitest";
import { redisKeys } from "../../../src/lib/redis-keys.ts";
import { callAudit } from "../../../src/pipeline/campaign/call-audit.ts";
import type { ConsentRecord } from "../../../src/pipeline/consent/consent-record.ts";
import { pollCampaign } from "../../../src/pipeline/results/poll-campaign.ts";
import { type AuditEntry, createAuditLog } from "../../../src/pipeline/stores/audit-log.ts";
import { createConsentStore } from "../../../src/pipeline/stores/consent-store.ts";
import { loadDoNotCallList } from "../../../src/pipeline/stores/dnc/load-list.ts";
import { createSuppressionList } from "../../../src/pipeline/stores/suppression.ts";
import { jobJ } from "../../support/own-campaign.ts";
import { usePollCampaigns } from "../../support/poll.ts";

/** Issue 46 items 3 and 4: every contact a campaign's audience shows has exactly one audit record, naming what allowed it. */
describe("the audit trail of a campaign's calls", () => {
  const { t, redis, prefix, campaignOf, optionsOf } = usePollCampaigns();

  it("records each number once, with its consent, rule sets, do-not-call lists (content hash), window and caps", async () => {
    const p = prefix();
    const keys = redisKeys(p);
    const { id, store } = await campaignOf(3, p);
    const consent = createConsentStore(redis, keys);
    const audit = createAuditLog(redis, keys);
    const given: ConsentRecord = {
      givenAt: Date.parse("2026-01-05T10:00:00Z"),
      kind: "written",
      file: "leads.csv",
      row: 2,
      trustedForm: "https://cert.trustedform.com/abc",
    };
    await consent.record("+14155551000", given);
    async function* listed() {
      yield { line: 1, phone: "+12125550100" };
    }
    await loadDoNotCallList(redis, keys, listed(), {
      source: "ftc",
      file: "ftc.txt",
      expiresInMs: undefined,
    });
    const def = jobJ({ calling: { rules: ["us"], consent: { require: "written" } } });
    const suppression = createSuppressionList(redis, keys);
    const poll = () =>
      pollCampaign(id, {
        ...optionsOf(p, store),
        audit: callAudit(def, { audit, consent, suppression, now: Date.now }),
      });
    await poll();
    t.sim.clock.advance(3_600_000);
    await poll();
    await poll();
    const trail: AuditEntry[] = [];
    for await (const e of audit.range(0, Date.now())) trail.push(e);
    expect(trail.map((e) => e.phone).sort()).toEqual(["+14155551000", "+14155551001", "+14155551002"]);
    expect(trail.every((e) => e.decision === "called" && e.campaign === id && e.job === "j")).toBe(true);
    const first = trail.find((e) => e.phone === "+14155551000")!;
    expect(first.facts).toMatchObject({
      consent: given,
      requirement: "written",
      rules: [{ id: "us", read: "2026-11-25", sha256: expect.stringMatching(/^[0-9a-f]{12}$/) }],
      doNotCall: [
        { source: "ftc", file: "ftc.txt", numbers: 1, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
      ],
      window: { scheduledAt: expect.any(String) },
      caps: { recallAfterDays: 7 },
    });
    expect(trail.find((e) => e.phone === "+14155551001")!.facts?.consent).toBeNull();
    // The campaign's own count: one record per number the service reported.
    const stored = (await store.get(id))!;
    const scoped = await audit.ofScope(`campaign:${id}`);
    expect(scoped.count).toBe(stored.totals.contacts);
    expect(scoped.entries.map((e) => e.phone).sort()).toEqual(trail.map((e) => e.phone).sort());
  });
});
