import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { JobDefinition } from "../../../src/config/job-definition.ts";
import { createFileRegistry } from "../../../src/inbox/file-registry.ts";
import type { RedisKeys } from "../../../src/lib/redis-keys.ts";
import { revokeConsent } from "../../../src/pipeline/consent/revoke-consent.ts";
import { createImportUseCase, importSpecOf } from "../../../src/pipeline/import/import-use-case.ts";
import { createAuditLog } from "../../../src/pipeline/stores/audit-log.ts";
import { createCallHistory } from "../../../src/pipeline/stores/call-history.ts";
import { createConsentStore } from "../../../src/pipeline/stores/consent-store.ts";
import { createContactLedger } from "../../../src/pipeline/stores/contact-ledger.ts";
import { createCreateMemo } from "../../../src/pipeline/stores/create-memo.ts";
import { createFileRowsStore } from "../../../src/pipeline/stores/file-rows.ts";
import { createSuppressionList } from "../../../src/pipeline/stores/suppression.ts";
import { tempDir, writeFixture } from "../../support/files.ts";
import { useRedis } from "../../support/redis.ts";
import { useSimulator } from "../../support/simulator.ts";

const job = (require: "none" | "express" | "written", name = "consent", countries?: string[]) =>
  JobDefinition.parse({
    name,
    inbox: "/nowhere",
    segment: { name: `${name}-{sha}` },
    contacts: { country: "US" },
    campaign: { assistant: { id: "a1" }, dialer: { id: "d1" } },
    calling: { consent: { require, ...(countries ? { countries } : {}) } },
  });

/** A lead vendor's export: consent time, kind, TrustedForm certificate, Jornaya token. */
const LEADS = [
  "Phone,First Name,TCPA Consent Date,Consent Type,xxTrustedFormCertUrl,universal_leadid",
  "4155550101,Ann,2026-01-05T10:00:00Z,Express Written,https://cert.trustedform.com/abc,LID-1",
  "4155550102,Bo,01/06/2026 2:05 PM,express,,",
  "4155550103,Cy,,,https://cert.trustedform.com/def,",
  "4155550104,Di,yesterday,written,,",
].join("\n");

/** Consent from the file and a job's requirement (issue 46 item 1), through the one import use case. */
describe("consent read from a contact file", () => {
  const t = useSimulator();
  const { redis, keys: freshKeys } = useRedis();

  function useCase(keys: RedisKeys) {
    const suppression = createSuppressionList(redis, keys);
    const consent = createConsentStore(redis, keys);
    const audit = createAuditLog(redis, keys);
    const imports = createImportUseCase({
      client: t.client,
      memo: createCreateMemo(redis, keys, { retentionMs: 60_000 }),
      leaseMs: 30_000,
      ledger: createContactLedger(redis, { keys, leaseMs: 30_000, settleMs: 100 }),
      registry: createFileRegistry(redis, keys),
      suppression,
      history: createCallHistory(redis, keys, { keepMs: 60_000 }),
      fileRows: createFileRowsStore(redis, keys),
      consent,
      audit,
    });
    const run = async (def: JobDefinition, csv: string, sha: string) => {
      const path = writeFixture(tempDir("vcw-consent-"), `${sha}.csv`, `${csv}\n`);
      const errorsPath = `${path}.errors.csv`;
      const result = await imports.run({
        spec: importSpecOf(def),
        path,
        sha256: sha,
        original: `${sha}.csv`,
        admittedAt: Date.now(),
        owner: `o-${sha}`,
        creator: `${def.name}:${sha}:0`,
        errorsPath,
      });
      const report = result.errorsFile ? readFileSync(errorsPath, "utf8") : "";
      return { result, report };
    };
    return { run, consent, suppression, audit };
  }

  it("under require: written, only the row whose consent is written is created; the others are refused naming the field", async () => {
    const keys = freshKeys();
    const { run, consent, audit } = useCase(keys);
    const { result, report } = await run(job("written"), LEADS, "w1");
    // Each refusal is in the audit trail, once, with its row and reason; a second run adds none.
    await run(job("written"), LEADS, "w1");
    const trail = [];
    for await (const e of audit.range(0, Date.now())) trail.push(e);
    expect(trail.map((e) => [e.decision, e.phone, e.row, e.reason, e.file])).toEqual([
      ["refused", "+14155550102", 3, "consent_not_written", "w1.csv"],
      ["refused", "+14155550103", 4, "consent_missing", "w1.csv"],
      ["refused", "+14155550104", 5, "consent_invalid", "w1.csv"],
    ]);
    expect(result.created).toBe(1);
    expect(result.totals.skipped).toBe(3);
    expect(result.totals.codes).toMatchObject({
      consent_not_written: 1,
      consent_missing: 1,
      consent_invalid: 1,
    });
    const lines = report.split("\r\n");
    expect(lines.find((l) => l.startsWith("4155550102"))).toContain(",3,consent kind,,consent_not_written,");
    expect(lines.find((l) => l.startsWith("4155550103"))).toContain(",4,consent given at,,consent_missing,");
    expect(lines.find((l) => l.startsWith("4155550104"))).toContain(",5,consent given at,,consent_invalid,");
    const kept = await consent.read(["+14155550101", "+14155550102"]);
    expect(kept.get("+14155550101")?.consent).toMatchObject({
      kind: "written",
      givenAt: Date.parse("2026-01-05T10:00:00Z"),
      trustedForm: "https://cert.trustedform.com/abc",
      leadId: "LID-1",
      file: "w1.csv",
      row: 2,
    });
    // Kept even when this job needs more: another job may need only express consent.
    expect(kept.get("+14155550102")?.consent).toMatchObject({
      kind: "express",
      givenAt: Date.parse("2026-01-06T14:05:00Z"),
    });
    // The key holds a digest, never the number.
    const found = await redis.keys(`${keys.prefix}:consent:*`);
    expect(found).toHaveLength(2);
    expect(found.join()).not.toMatch(/4155550/);
  });

  it("a job naming its seller refuses a row whose consent names another seller, in the errors report and the trail", async () => {
    const { run, audit } = useCase(freshKeys());
    const acme = JobDefinition.parse({
      name: "acme",
      inbox: "/nowhere",
      segment: { name: "acme-{sha}" },
      contacts: { country: "US" },
      campaign: { assistant: { id: "a1" }, dialer: { id: "d1" } },
      calling: { consent: { require: "written", seller: "Acme" } },
    });
    const file = [
      "Phone,First Name,Consent Given At,Consent Kind,Seller",
      "4155550131,Ann,2026-01-05T10:00:00Z,written,OtherCo",
      "4155550132,Bo,2026-01-05T10:00:00Z,written, ACME ",
    ].join("\n");
    const { result, report } = await run(acme, file, "s1");
    expect(result.created).toBe(1);
    expect(result.totals.codes).toEqual({ consent_other_seller: 1 });
    const line = report.split("\r\n").find((l) => l.startsWith("4155550131"));
    expect(line).toContain(",2,consent seller,,consent_other_seller,");
    expect(line).toContain('no consent given to the seller ""Acme""');
    const trail = [];
    for await (const e of audit.range(0, Date.now())) trail.push(e);
    expect(trail.map((e) => [e.phone, e.reason])).toEqual([["+14155550131", "consent_other_seller"]]);
  });

  it("a rule for US numbers refuses a US row without consent and files the Canadian and British ones", async () => {
    const { run } = useCase(freshKeys());
    const mixed = ["Phone,First Name", "4155550107,Al", "4165550107,Cam", "+442071838750,Gil"].join("\n");
    const { result, report } = await run(job("written", "us-only", ["US"]), mixed, "c1");
    expect(result.created).toBe(2);
    expect(result.totals.codes).toMatchObject({ consent_missing: 1 });
    expect(report).toContain("4155550107");
    expect(report).not.toContain("4165550107");
  });

  it("under require: express, a later file without consent columns relies on the consent kept from an earlier one", async () => {
    const keys = freshKeys();
    const { run } = useCase(keys);
    await run(job("none", "first"), LEADS, "e1");
    const plain = ["Phone,First Name", "4155550101,Ann", "4155550102,Bo", "4155550105,Ed"].join("\n");
    const { result, report } = await run(job("express", "second"), plain, "e2");
    expect(result.created).toBe(2);
    expect(result.totals.codes).toMatchObject({ consent_missing: 1 });
    expect(report).toContain("4155550105");
  });

  it("with require: none (the default) a file without consent columns imports as before, nothing kept", async () => {
    const keys = freshKeys();
    const { run } = useCase(keys);
    expect(
      JobDefinition.parse({ name: "x", inbox: "/x", segment: { id: "s" } }).calling.consent.require,
    ).toBe("none");
    const { result } = await run(job("none"), ["Phone,First Name", "4155550101,Ann"].join("\n"), "n1");
    expect(result.created).toBe(1);
    expect(await redis.keys(`${keys.prefix}:consent:*`)).toEqual([]);
  });

  it("a consent older than a revocation is not resurrected by a re-import; a newer one is kept but the number stays suppressed", async () => {
    const keys = freshKeys();
    const { run, consent, suppression } = useCase(keys);
    const revokedAt = Date.parse("2026-02-01T00:00:00Z");
    await revokeConsent(["+14155550101"], revokedAt, "vcw consent revoke", { consent, suppression });
    const { result, report } = await run(job("express"), LEADS, "r1");
    expect(result.totals.codes.consent_revoked).toBe(1);
    expect(report).toContain("consent was revoked 2026-02-01T00:00:00.000Z (vcw consent revoke)");
    expect((await consent.read(["+14155550101"])).get("+14155550101")?.consent).toBeUndefined();
    const newer = ["Phone,First Name,Consent Given At", "4155550101,Ann,2026-03-01T00:00:00Z"].join("\n");
    const again = await run(job("express"), newer, "r2");
    expect(again.result.created).toBe(0);
    expect(again.result.totals.codes).toEqual({ opted_out: 1 });
    expect((await consent.read(["+14155550101"])).get("+14155550101")?.consent?.givenAt).toBe(
      Date.parse("2026-03-01T00:00:00Z"),
    );
  });

  it("a revocation column in a later file revokes the number for every job, at the time received", async () => {
    const keys = freshKeys();
    const { run, consent, suppression } = useCase(keys);
    await run(job("express", "a"), LEADS, "c1");
    const before = Date.now();
    const revoking = ["Phone,First Name,Opt Out Date", "4155550102,Bo,yes", "4155550101,Ann,no"].join("\n");
    const { result, report } = await run(job("none", "b"), revoking, "c2");
    expect(result.totals.codes).toEqual({ consent_revoked: 1 });
    expect(report).toContain("(file c2.csv row 2)");
    const kept = (await consent.read(["+14155550102"])).get("+14155550102")!;
    expect(kept.revokedAt).toBeGreaterThanOrEqual(before);
    expect(kept.revokedVia).toBe("file c2.csv row 2");
    expect([...(await suppression.optedOut(["+14155550101", "+14155550102"]))]).toEqual(["+14155550102"]);
    // Another job's re-import of the older consent does not bring it back.
    const { result: third } = await run(job("express", "c"), LEADS, "c3");
    expect(third.totals.codes.consent_revoked).toBe(1);
  });

  it("a revocation on a duplicate row counts; an unreadable revocation cell refuses its row and revokes nothing", async () => {
    const { run, consent, suppression } = useCase(freshKeys());
    const file = [
      "Phone,First Name,Consent Given At,Consent Kind,Revoked",
      "4155550121,Ann,2026-01-05T10:00:00Z,written,",
      // The same number again, its consent revoked: read before, the row was only a duplicate.
      "4155550121,Ann,,,yes",
      "4155550122,Bo,2026-01-05T10:00:00Z,written,maybe",
    ].join("\n");
    const { result, report } = await run(job("written", "dupes"), file, "d1");
    expect(result.totals.duplicates).toBe(1);
    expect(result.totals.codes).toMatchObject({ consent_invalid: 1 });
    expect(report).toMatch(/maybe"+ in the revocation column is neither a past date nor yes or no/);
    expect((await consent.read(["+14155550121"])).get("+14155550121")?.revokedAt).toBeDefined();
    expect([...(await suppression.optedOut(["+14155550121", "+14155550122"]))]).toEqual(["+14155550121"]);
    expect((await consent.read(["+14155550122"])).get("+14155550122")?.revokedAt).toBeUndefined();
  });
});
