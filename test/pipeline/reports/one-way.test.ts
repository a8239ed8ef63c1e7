import { describe, expect, it } from "vitest";
import { counted, plural } from "../../../src/lib/plural.ts";
import { fileStamp, zonedTime } from "../../../src/lib/zoned-time.ts";
import { emptyTotals } from "../../../src/pipeline/model/campaign-totals.ts";
import { campaignListing, listingLine } from "../../../src/pipeline/reports/campaign-list.ts";
import { reportFileBase } from "../../../src/pipeline/reports/format.ts";
import { askedPeriod, scheduledPeriod } from "../../../src/pipeline/reports/period.ts";
import { reportHtml } from "../../../src/pipeline/reports/report-html.ts";
import { reportText } from "../../../src/pipeline/reports/report-text.ts";
import { periodName } from "../../../src/pipeline/reports/words.ts";
import { reportEmail } from "../../../src/sinks/email/report-email.ts";
import { reportBlocks } from "../../../src/sinks/slack/report-slack.ts";
import { campaignInfo } from "../../support/fixtures.ts";
import { followUpReport } from "../../support/report-fixture.ts";

const CONTACTS = "2 of 6 contacts (33.3%)";
const CALLS = "2 of 9 calls (22.2%)";
/** An instant as ISO (`2026-11-25T05:00`): for --json, never for a person. */
const ISO = /\d{4}-\d\d-\d\dT\d\d:\d\d/;

/** Every rendering a person reads of one report (the HTML as its text, tags dropped). */
async function renderings() {
  const r = followUpReport();
  const email = await reportEmail(r);
  const slack = JSON.stringify(reportBlocks(r, "https://vcw.example.com/reports/leads"));
  const textOf = (html: string) => html.replace(/<style>[^<]*<\/style>/g, "").replace(/<[^>]+>/g, " ");
  return {
    r,
    outputs: {
      text: reportText(r),
      page: textOf(reportHtml(r, [])),
      emailHtml: textOf(email.html),
      emailText: email.text,
      slack,
    },
  };
}

describe("every figure reads one way (issue 30)", () => {
  it("reach per contact and per call, each labelled, the same in every output and in the JSON", async () => {
    const { r, outputs } = await renderings();
    expect(r.totals).toMatchObject({ contactsCalled: 6, calls: 9, reached: 2, contactsReached: 2 });
    expect(r.totals.contactReachRate).toBeCloseTo(0.3333, 4);
    expect(r.totals.reachRate).toBeCloseTo(0.2222, 4);
    for (const [name, out] of Object.entries(outputs)) {
      expect(out, name).toContain(CONTACTS);
      expect(out, name).toContain(CALLS);
      expect(out, name).toMatch(/Reached: a contact with a call that ended in completed/);
    }
    expect(outputs.text).toContain(`Reached: ${CONTACTS} (no calls in the previous period)`);
    expect(outputs.text).toContain(`Reached per call: ${CALLS} (no calls in the previous period)`);
    expect(outputs.slack).toContain(`*Reached*\\n${CONTACTS}`);
    expect(outputs.slack).toContain(`*Reached per call*\\n${CALLS}`);
  });

  it("a campaign's reach reads the same in the report, vcw campaigns and the dashboard's rows", async () => {
    const { outputs } = await renderings();
    expect(outputs.text).toContain("Leads Monday [finished]: reached 1 of 6 contacts (16.7%), 1 meeting;");
    expect(outputs.page).toContain("1 of 6 contacts (16.7%)");
    const stored = {
      info: campaignInfo({ id: "cmp_first", name: "Leads Monday", scheduledAt: "2026-11-25T15:00:00Z" }),
      totals: { ...emptyTotals(), contacts: 6, final: 6, byStatus: { completed: 1, "no-answer": 5 } },
      version: 1,
      digest: "",
      createdAt: 0,
      lastChangeAt: 0,
      endedAt: 0,
      sentVersion: 0,
    };
    const line = listingLine(campaignListing(stored, undefined, Date.parse("2026-11-26T00:00:00Z")));
    expect(line).toContain("6 contacts, 6 done, reached 1 of 6 contacts (16.7%), 0 meetings");
    expect(line).toContain("started 2026-11-25 15:00 UTC (UTC)");
  });

  it("results link to the campaign's page and its CSV", async () => {
    const { r, outputs } = await renderings();
    expect(r.campaigns[0]!.links).toEqual({
      page: "https://vcw.example.com/campaigns/cmp_first",
      csv: "https://vcw.example.com/campaigns/cmp_first/results.csv",
    });
    expect(outputs.text).toContain(
      "https://vcw.example.com/campaigns/cmp_first (CSV https://vcw.example.com/campaigns/cmp_first/results.csv)",
    );
    const html = reportHtml(r, []);
    expect(html).toMatch(/<a href="https:\/\/vcw\.example\.com\/campaigns\/cmp_first"[^>]*>page<\/a>/);
    expect(html).toMatch(
      /<a href="https:\/\/vcw\.example\.com\/campaigns\/cmp_first\/results\.csv"[^>]*>CSV<\/a>/,
    );
    expect(html).not.toContain("vcw report cmp_");
  });

  it("every time a person reads carries its zone; ISO only in the JSON", async () => {
    const { r, outputs } = await renderings();
    for (const [name, out] of Object.entries(outputs)) expect(out, name).not.toMatch(ISO);
    expect(outputs.text).toContain("2026-11-25 00:00 EST – 2026-11-26 00:00 EST (America/New_York)");
    expect(outputs.text).toContain("Made 2026-11-26 00:01 EST.");
    expect(JSON.stringify(r)).toMatch(ISO);
    expect(zonedTime("2026-07-01T13:00:00Z", "America/New_York")).toBe("2026-07-01 09:00 EDT");
    expect(zonedTime("2026-11-26T14:00:00Z", "Europe/Berlin")).toBe("2026-11-26 15:00 GMT+1");
    // A file's name has no zone to be read in: UTC with a Z.
    expect(fileStamp("2026-11-26T05:00:00Z")).toBe("20261126T0500Z");
    expect(fileStamp("2026-11-26T05:00:07Z")).toBe("20261126T050007Z");
    expect(reportFileBase(r)).toBe("leads.day-20261126T0500Z");
  });

  it("one vocabulary for periods: the last 7 days, the day of, the week of, the month of", () => {
    const ny = "America/New_York";
    const midnight = Date.parse("2026-11-26T05:00:00Z");
    const name = (kind: "day" | "week" | "month", at: number) => periodName(scheduledPeriod(kind, at, ny));
    expect(name("day", midnight)).toBe("the day of 2026-11-25");
    expect(name("week", midnight)).toBe("the week of 2026-11-19 to 2026-11-25");
    expect(name("month", Date.parse("2026-11-01T04:00:00Z"))).toBe("the month of October 2026");
    expect(name("day", Date.parse("2026-11-26T13:00:00Z"))).toBe("the day to 2026-11-26 08:00 EST");
    const asked = (since: string) => askedPeriod({ since }, midnight, ny);
    expect(asked("7d")).toMatchObject({ label: "last 7 days" });
    expect(asked("24h")).toMatchObject({ label: "last 24 hours" });
    expect(asked("1d")).toMatchObject({ label: "last 1 day" });
    expect(asked("90m")).toMatchObject({ label: "last 90 minutes" });
    expect(
      askedPeriod({ from: "2026-11-20T13:00:00Z", to: "2026-11-21T13:00:00Z" }, midnight, ny),
    ).toMatchObject({
      label: "2026-11-20 08:00 EST to 2026-11-21 08:00 EST",
    });
  });

  it("plurals through Intl.PluralRules: no '(s)', no '1 duplicates'", async () => {
    expect([plural("campaign", 1), plural("campaign", 0), plural("entry", 2)]).toEqual([
      "campaign",
      "campaigns",
      "entries",
    ]);
    expect(counted(1_204, "duplicate")).toBe("1,204 duplicates");
    const { outputs } = await renderings();
    for (const [name, out] of Object.entries(outputs)) {
      expect(out, name).not.toContain("(s)");
      expect(out, name).not.toMatch(/\b1 (campaign|contact|call|file|row|duplicate|meeting)s\b/);
    }
    expect(outputs.text).toContain("Follow-ups: 3 calls in 1 campaign: 1 reached, 1 meeting");
    expect(outputs.text).toContain(
      "Files: 1 file imported, 0 rejected; 7 rows read, 6 valid, 0 rejected, 1 duplicate",
    );
    expect(outputs.slack).toContain("2 campaigns; 1 file imported, 0 rejected; 6 contacts created.");
  });
});
