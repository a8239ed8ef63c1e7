import { describe, expect, it } from "vitest";
import { callAudit } from "../../../src/pipeline/campaign/call-audit.ts";
import { auditCells } from "../../../src/pipeline/consent/audit-rows.ts";
import { type GateRow, openConsentGate } from "../../../src/pipeline/consent/consent-gate.ts";
import type { ConsentRule } from "../../../src/pipeline/consent/consent-record.ts";
import { revokeConsent } from "../../../src/pipeline/consent/revoke-consent.ts";
import { type AuditEntry, createAuditLog } from "../../../src/pipeline/stores/audit-log.ts";
import { createCampaignStore } from "../../../src/pipeline/stores/campaign-store.ts";
import { createConsentStore } from "../../../src/pipeline/stores/consent-store.ts";
import { createSuppressionList } from "../../../src/pipeline/stores/suppression.ts";
import { campaignInfo } from "../../support/fixtures.ts";
import { jobJ } from "../../support/own-campaign.ts";
import { useRedis } from "../../support/redis.ts";

const HEADERS = ["Phone", "First Name", "Consent Given At", "Consent Kind", "Seller"];
const ANN = "+14155552601";
const BO = "+14155552602";

/** A row of a file with consent columns (or, without `consent`, of a plain file). */
const row = (phone: string, line: number, consent?: [string, string, string]): GateRow => ({
  phone,
  cells: [phone.slice(2), "N", ...(consent ?? [])],
  index: line - 2,
  line,
});

/**
 * Issue 46 follow-up: consent is kept per number and per seller; a job naming its seller
 * (`calling.consent.seller`) is served only by a consent naming that seller (47 CFR
 * 64.1200(f)(9)); the call record names the consent that served, and the number's revocation.
 */
describe("consent per seller", () => {
  const { redis, keys: freshKeys } = useRedis();

  function stores() {
    const keys = freshKeys();
    const consent = createConsentStore(redis, keys);
    const suppression = createSuppressionList(redis, keys);
    const gate = (headers: readonly string[], rule: ConsentRule, file: string) =>
      openConsentGate(headers, { ...rule, file }, { consent, suppression, now: Date.now })!;
    return { keys, consent, suppression, gate };
  }

  it("another job's later verbal consent for OtherCo leaves job W's written consent for Acme serving it, and W's call record names Acme's", async () => {
    const { keys, consent, suppression, gate } = stores();
    const w = { require: "written", seller: "Acme" } as const;
    expect(await gate(HEADERS, w, "w.csv")(row(ANN, 2, ["2026-01-05T10:00:00Z", "written", "Acme"]))).toBe(
      undefined,
    );
    // Job V, another seller, later: a verbal consent (express).
    const v = { require: "express", seller: "OtherCo" } as const;
    expect(await gate(HEADERS, v, "v.csv")(row(ANN, 3, ["2026-02-01T10:00:00Z", "verbal", "OtherCo"]))).toBe(
      undefined,
    );
    // Job W's next file, without consent columns: Acme's written consent still serves (the seller's
    // name compared trimmed, case-insensitive).
    expect(
      await gate(["Phone", "First Name"], { require: "written", seller: " acme " }, "w2.csv")(row(ANN, 2)),
    ).toBe(undefined);
    const kept = (await consent.read([ANN])).get(ANN)!;
    expect(kept.consents.map((c) => [c.seller, c.kind]).sort()).toEqual([
      ["Acme", "written"],
      ["OtherCo", "express"],
    ]);

    // The call record of job W names Acme's written consent, not the newer one of OtherCo.
    const audit = createAuditLog(redis, keys);
    const store = createCampaignStore(redis, keys);
    await store.register(campaignInfo({ id: "cmp_w", name: "cmp_w" }), Date.now());
    const stored = (await store.get("cmp_w"))!;
    const deps = { audit, consent, suppression, now: Date.now };
    await callAudit(jobJ({ calling: { consent: w } }), deps)(stored, [ANN]);
    const trail: AuditEntry[] = [];
    for await (const e of audit.range(0, Date.now())) trail.push(e);
    expect(trail).toHaveLength(1);
    expect(trail[0]!.facts).toMatchObject({
      requirement: "written",
      seller: "Acme",
      consent: { kind: "written", seller: "Acme", file: "w.csv", row: 2 },
      revocation: null,
    });

    // A revocation (the consumer's, for every seller) and a newer written consent for Acme: the
    // record names the consent that served and the revocation it came after.
    const revokedAt = Date.parse("2026-02-10T00:00:00Z");
    await revokeConsent([ANN], revokedAt, "vcw consent revoke", { consent, suppression });
    expect(
      (await gate(HEADERS, w, "w3.csv")(row(ANN, 2, ["2026-01-20T10:00:00Z", "written", "Acme"])))?.code,
    ).toBe("consent_revoked");
    expect((await gate(["Phone", "First Name"], v, "v2.csv")(row(ANN, 2)))?.code).toBe("consent_revoked");
    await gate(HEADERS, w, "w4.csv")(row(ANN, 2, ["2026-03-01T10:00:00Z", "written", "Acme"]));
    await store.register(campaignInfo({ id: "cmp_w2", name: "cmp_w2" }), Date.now());
    await callAudit(jobJ({ calling: { consent: w } }), deps)((await store.get("cmp_w2"))!, [ANN]);
    const second = (await audit.ofScope("campaign:cmp_w2")).entries[0]!;
    expect(second.facts).toMatchObject({
      consent: { kind: "written", seller: "Acme", file: "w4.csv" },
      revocation: { at: "2026-02-10T00:00:00.000Z", via: "vcw consent revoke" },
    });
    // And so does the export's CSV row.
    expect(auditCells(second)).toMatchObject({
      consent_seller: "Acme",
      consent_kind: "written",
      consent_seller_required: "Acme",
      consent_revoked_at: "2026-02-10T00:00:00.000Z",
      consent_revoked_via: "vcw consent revoke",
    });
  });

  it("a job naming Acme refuses a number whose only consent names OtherCo; a job naming none takes it", async () => {
    const { gate } = stores();
    await gate(
      HEADERS,
      { require: "none" },
      "v.csv",
    )(row(BO, 2, ["2026-01-05T10:00:00Z", "written", "OtherCo"]));
    const plain = ["Phone", "First Name"];
    const refused = await gate(plain, { require: "written", seller: "Acme" }, "w.csv")(row(BO, 2));
    expect(refused?.code).toBe("consent_other_seller");
    expect(refused?.message).toContain('"Acme"');
    expect(refused?.message).toContain("OtherCo");
    // The row's own consent for OtherCo does not serve a job naming Acme either.
    const own = await gate(
      HEADERS,
      { require: "express", seller: "Acme" },
      "w2.csv",
    )(row(BO, 2, ["2026-01-06T10:00:00Z", "express", "OtherCo"]));
    expect(own?.code).toBe("consent_other_seller");
    // Without a seller named, any consent serves (as before): OtherCo's written one, which its later
    // express one (kept beside it, per seller and kind) did not replace.
    expect(await gate(plain, { require: "written" }, "x.csv")(row(BO, 2))).toBeUndefined();
  });

  it("reads a consent kept before consent was kept per seller (a rolling deploy), beside the new ones", async () => {
    const { keys, consent, gate } = stores();
    const legacy = {
      givenAt: Date.parse("2026-01-05T10:00:00Z"),
      kind: "written",
      seller: "Acme",
      file: "old.csv",
      row: 2,
    };
    await redis.hset(keys.consent(BO), "givenAt", legacy.givenAt, "consent", JSON.stringify(legacy));
    expect((await consent.read([BO])).get(BO)).toMatchObject({ consent: legacy, consents: [legacy] });
    expect(
      await gate(["Phone", "First Name"], { require: "written", seller: "ACME" }, "w.csv")(row(BO, 2)),
    ).toBe(undefined);
    await gate(
      HEADERS,
      { require: "none" },
      "v.csv",
    )(row(BO, 3, ["2026-02-01T10:00:00Z", "verbal", "OtherCo"]));
    const kept = (await consent.read([BO])).get(BO)!;
    expect(kept.consent).toMatchObject({ seller: "OtherCo" });
    expect(kept.consents).toHaveLength(2);
    expect(
      await gate(["Phone", "First Name"], { require: "written", seller: "acme" }, "w.csv")(row(BO, 2)),
    ).toBe(undefined);
    // The key still names no number.
    expect((await redis.keys(`${keys.prefix}:consent:*`)).join()).not.toMatch(/4155552/);
  });
});
