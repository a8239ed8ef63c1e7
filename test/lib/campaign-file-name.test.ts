import { describe, expect, it } from "vitest";
import { campaignFileBase, NAME_BYTES } from "../../src/lib/campaign-file-name.ts";

const bytes = (s: string) => Buffer.byteLength(s, "utf8");

describe("a campaign's file name", () => {
  it("keeps the job, date, file and zone: a zone's / is no folder", () => {
    const name =
      "example-leads 2026-11-28 example-leads.csv #100294d5 [America/Los_Angeles] (variant a) follow-up 1";
    expect(campaignFileBase({ id: "cmp_c77481-000h", name })).toBe(
      "example-leads 2026-11-28 example-leads.csv #100294d5 [America-Los_Angeles] (variant a) follow-up 1.cmp_c77481-000h",
    );
    expect(campaignFileBase({ id: "cmp_1", name: "x #0000abcd [America/Argentina/Buenos_Aires]" })).toBe(
      "x #0000abcd [America-Argentina-Buenos_Aires].cmp_1",
    );
    expect(campaignFileBase({ id: "cmp_1", name: "a\\b #0000abcd" })).toBe("a-b #0000abcd.cmp_1");
  });

  it("a long name loses the middle of its pattern's part, never the hash, zone, variant or follow-up", () => {
    const job = "quarterly-reactivation-of-dormant-enterprise-accounts-north-america";
    const file = "crm-export-enterprise-accounts-dormant-over-180-days-west-coast-final-v3.csv";
    const name = `${job} 2026-11-28 ${file} #0badf00d [America/Los_Angeles] (variant warm-intro) follow-up 2`;
    const base = campaignFileBase({ id: "cmp_9", name });
    expect(bytes(base)).toBeLessThanOrEqual(NAME_BYTES + bytes(".cmp_9"));
    expect(base).toMatch(/^quarterly-reactivation.*….*west-coast-final-v3\.csv #0badf00d /);
    expect(base).toMatch(/ #0badf00d \[America-Los_Angeles\] \(variant warm-intro\) follow-up 2\.cmp_9$/);
  });

  it("bounded in bytes, not characters, and never half a character; phones masked; no hidden controls", () => {
    const name = `${"Zürich-Kunden-".repeat(20)}文件.csv #12345678 [Europe/Zurich]`;
    const base = campaignFileBase({ id: "cmp_2", name });
    expect(bytes(base.slice(0, -".cmp_2".length))).toBeLessThanOrEqual(NAME_BYTES);
    expect(base).not.toContain("\uFFFD");
    expect(base).toMatch(/文件\.csv #12345678 \[Europe-Zurich\]\.cmp_2$/);
    expect(campaignFileBase({ id: "cmp_3", name: "call +14155550123 \u202Etxt.exe #12345678" })).toBe(
      "call +14•••••••23 txt.exe #12345678.cmp_3",
    );
    expect(campaignFileBase({ id: "cmp_4", name: "../.. #12345678" })).toBe("-.. #12345678.cmp_4");
    expect(campaignFileBase({ id: "cmp_5", name: "..." })).toBe("cmp_5");
  });
});
