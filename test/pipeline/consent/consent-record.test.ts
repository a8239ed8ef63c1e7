import { describe, expect, it } from "vitest";
import { underCallingRules } from "../../../src/config/calling-rules-switch.ts";
import { JobDefinition } from "../../../src/config/job-definition.ts";
import { consentCellsOf, consentColumns } from "../../../src/ingest/consent-columns.ts";
import { revocationIn } from "../../../src/pipeline/consent/consent-gate.ts";
import {
  consentFromCells,
  consentKindOf,
  requirementFor,
  unmetRequirement,
} from "../../../src/pipeline/consent/consent-record.ts";
import { parseConsentTime } from "../../../src/pipeline/consent/consent-time.ts";

const at = { file: "f.csv", row: 2, now: Date.parse("2026-06-01T00:00:00Z") };

describe("consent columns and records (pure)", () => {
  it("finds consent columns by their export spellings, best name first", () => {
    const headers = [
      "Phone",
      "Opt-In Date",
      "Consent Given At",
      "TCPA Consent Type",
      "xxTrustedFormCertUrl",
      "LeadiD",
      "Seller",
      "Consent Language",
    ];
    expect(consentColumns(headers)).toEqual({
      givenAt: 2,
      kind: 3,
      trustedForm: 4,
      leadId: 5,
      seller: 6,
      text: 7,
    });
    expect(consentColumns(["Phone", "Name"])).toEqual({});
    expect(consentCellsOf(["+1", " ", "", ""], consentColumns(headers))).toBeUndefined();
  });

  it("reads the times exports write, as UTC when they name no zone; refuses the unreadable", () => {
    expect(parseConsentTime("2026-01-05T10:00:00Z")).toBe(Date.parse("2026-01-05T10:00:00Z"));
    expect(parseConsentTime("2026-01-05 10:00")).toBe(Date.parse("2026-01-05T10:00:00Z"));
    expect(parseConsentTime("2026-01-05T10:00:00-05:00")).toBe(Date.parse("2026-01-05T15:00:00Z"));
    expect(parseConsentTime("1/6/2026 12:05 AM")).toBe(Date.parse("2026-01-06T00:05:00Z"));
    expect(parseConsentTime("1767607200")).toBe(1_767_607_200_000);
    expect(parseConsentTime("2/30/2026")).toBeUndefined();
    expect(parseConsentTime("yesterday")).toBeUndefined();
  });

  it("tells written from express consent, and keeps a hash of the text, never the text", () => {
    expect(["Express Written", "PEWC", "written", "e-sign"].map(consentKindOf)).toEqual(
      Array(4).fill("written"),
    );
    expect(["express", "Prior Express", "opt-in", "Y E S", ""].map(consentKindOf)).toEqual([
      "express",
      "express",
      "express",
      "unreadable",
      undefined,
    ]);
    // Negations were read as consent ("not written" as written): now none is taken for consent.
    const negated = [
      "verbal, not signed",
      "not written",
      "no e-sign",
      "declined",
      "None",
      "opt-out",
      "revoked",
    ];
    expect(negated.map(consentKindOf)).toEqual(Array(negated.length).fill("unreadable"));
    expect(consentFromCells({ givenAt: "2026-01-05", kind: "not written" }, at)).toMatchObject({
      code: "consent_invalid",
      field: "consent kind",
      message: expect.stringContaining('"not written" is not a consent kind'),
    });
    const record = consentFromCells({ givenAt: "2026-01-05", text: "I agree to be called" }, at);
    expect(record).toMatchObject({ kind: "express", textHash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(JSON.stringify(record)).not.toContain("I agree");
    expect(unmetRequirement(record as never, "written")?.code).toBe("consent_not_written");
    expect(unmetRequirement(record as never, "express")).toBeUndefined();
  });

  it("a consent without a time, or given in the future, does not serve", () => {
    expect(consentFromCells({ trustedForm: "https://cert.trustedform.com/x" }, at)).toMatchObject({
      code: "consent_missing",
      message: expect.stringContaining("consent evidence but no time"),
    });
    expect(consentFromCells({ givenAt: "2027-01-01" }, at)).toMatchObject({ code: "consent_invalid" });
    expect(consentFromCells(undefined, at)).toMatchObject({
      code: "consent_missing",
      field: "consent given at",
    });
  });

  it("a job requiring consent is not put under calling rules by it (its hours and caps stay as they were)", () => {
    const def = JobDefinition.parse({
      name: "j",
      inbox: "/i",
      segment: { id: "s" },
      calling: { consent: { require: "written" } },
    });
    expect(def.calling.consent.require).toBe("written");
    expect(underCallingRules(def)).toBe(false);
    // Nor by the seller it names (kept trimmed).
    const sold = JobDefinition.parse({
      name: "j",
      inbox: "/i",
      segment: { id: "s" },
      calling: { consent: { require: "written", seller: " Acme " } },
    });
    expect(sold.calling.consent.seller).toBe("Acme");
    expect(underCallingRules(sold)).toBe(false);
    expect(() =>
      JobDefinition.parse({
        name: "j",
        inbox: "/i",
        segment: { id: "s" },
        calling: { consent: { require: "implied" } },
      }),
    ).toThrow(/require/);
  });

  it("a rule for some countries requires consent of their numbers only (calling.consent.countries)", () => {
    const us = { require: "written" as const, countries: ["US"] };
    expect(requirementFor(us, "+14155550101")).toBe("written");
    // NANP: a Toronto number is Canada's, not the US's, though both dial +1.
    expect(requirementFor(us, "+14165550101")).toBe("none");
    expect(requirementFor(us, "+442071838750")).toBe("none");
    // No country named: every number; a number no country claims: required all the same.
    expect(requirementFor({ require: "express" }, "+442071838750")).toBe("express");
    expect(requirementFor(us, "+999123")).toBe("written");
    const def = JobDefinition.parse({
      name: "j",
      inbox: "/i",
      segment: { id: "s" },
      calling: { consent: { require: "written", countries: ["us", "CA"] } },
    });
    expect(def.calling.consent.countries).toEqual(["US", "CA"]);
    // A standing segment can't be emptied of those without consent: the job is refused (fail closed).
    expect(() =>
      JobDefinition.parse({
        name: "j",
        inbox: "/i",
        segment: { id: "s" },
        campaign: { assistant: { id: "a" }, dialer: { id: "d" }, audience: "segment" },
        calling: { consent: { require: "express" } },
      }),
    ).toThrow(/consent.require needs campaign.audience: file/);
    expect(underCallingRules(def)).toBe(false);
    expect(() =>
      JobDefinition.parse({
        name: "j",
        inbox: "/i",
        segment: { id: "s" },
        calling: { consent: { require: "written", countries: ["USA"] } },
      }),
    ).toThrow(/countries.*two-letter country code/s);
  });

  it("reads a revocation cell as a yes, a no, a past date, or refuses it: nothing revoked on a guess", () => {
    const now = Date.parse("2026-06-01T00:00:00Z");
    for (const none of ["", "no", "N", "N/A", "n/a", "never", "none", "No.", "not revoked", "-"])
      expect(revocationIn(none, now), none).toBeUndefined();
    for (const yes of ["yes", "Y", "TRUE", "1", "x", "Revoked", "opted out", "Opt-Out", "DNC"])
      expect(revocationIn(yes, now), yes).toBe(now);
    expect(revocationIn("2026-02-03", now)).toBe(Date.parse("2026-02-03T00:00:00Z"));
    for (const odd of ["maybe", "2027-01-01", "soon"]) expect(revocationIn(odd, now), odd).toBe("unreadable");
    // Common opt-out headers are revocation columns.
    for (const header of ["Opt Out", "Opted Out", "DNC", "Do Not Call", "Unsubscribed"])
      expect(consentColumns(["Phone", header]).revokedAt, header).toBe(1);
  });
});
