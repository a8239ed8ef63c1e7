import { describe, expect, it } from "vitest";
import { emptyTotals } from "../../../src/pipeline/model/campaign-totals.ts";
import { ExperimentFigures } from "../../../src/pipeline/reports/experiment-figures.ts";
import { experimentSection } from "../../../src/pipeline/reports/experiment-section.ts";
import { experimentLines } from "../../../src/pipeline/reports/experiment-text.ts";
import type { ReportCampaignNotMade } from "../../../src/pipeline/reports/model.ts";
import { reportHtml } from "../../../src/pipeline/reports/report-html.ts";
import { reportText } from "../../../src/pipeline/reports/report-text.ts";
import { campaignInfo } from "../../support/fixtures.ts";
import { builderOf, H, T0 } from "../../support/report-fixture.ts";

const REASON =
  'no assistant is named "Nobody": create it, or correct campaign.variants[1].assistant in the job';

const notMade = (zone: string, contacts: number, over: Partial<ReportCampaignNotMade> = {}) => ({
  name: `leads 2026-11-20 f.csv #0badf00d [${zone}] (variant b)`,
  job: "leads",
  file: "f.csv",
  zone,
  variant: "b",
  attempt: 0,
  contacts,
  outcome: "failed" as const,
  reason: REASON,
  at: new Date(T0 + 2 * H).toISOString(),
  ...over,
});

describe("campaigns not made, in the report", () => {
  it("each is a row with its reason; the problems say how many and why; the variant that got nobody says so", () => {
    const b = builderOf();
    b.addCampaign({
      info: campaignInfo({ id: "cmp_a", name: "leads a", variant: "a", state: "finished" }),
      totals: { ...emptyTotals(), contacts: 2, byStatus: { completed: 2 } },
      zone: "UTC",
      calls: ["+12125550101", "+12125550102"].map((phone) => ({
        phone,
        status: "completed",
        at: T0 + 3 * H,
        durationSec: 60,
        sentiment: "",
        meeting: false,
        transferred: false,
        messageSent: false,
      })),
    });
    b.addCampaignNotMade(notMade("America/Los_Angeles", 3));
    b.addCampaignNotMade(notMade("Europe/London", 5, { reason: `${REASON} (call +14155550123)` }));
    // Before the period: not this report's.
    b.addCampaignNotMade(notMade("Asia/Tokyo", 9, { at: new Date(T0 - H).toISOString() }));
    const r = b.build();

    expect(r.campaignsNotMade?.map((c) => [c.zone, c.contacts])).toEqual([
      ["America/Los_Angeles", 3],
      ["Europe/London", 5],
    ]);
    expect(JSON.stringify(r)).not.toContain("+14155550123");
    expect(r.problems.filter((p) => p.kind === "campaign-not-made").map((p) => p.message)).toEqual([
      `1 campaign not made (3 contacts not called), failed: ${REASON}`,
      `1 campaign not made (5 contacts not called), failed: ${REASON} (call +14•••••••23)`,
    ]);

    const text = reportText(r);
    expect(text).toContain("Campaigns not made (2):");
    expect(text).toContain(
      `- leads 2026-11-20 f.csv #0badf00d [America/Los_Angeles] (variant b) [failed]: 3 contacts not called; ${REASON}`,
    );
    const html = reportHtml(r, []);
    expect(html).toContain("Campaigns not made (2)");
    expect(html).toContain("no assistant is named &quot;Nobody&quot;");
  });

  it("the experiment's variant that got nobody says so, and why (figures over the experiment)", () => {
    const setup = {
      variants: [
        { name: "a", share: 1 },
        { name: "b", share: 1 },
      ],
      metric: "reached" as const,
      reached: new Set(["completed"]),
      optedOut: new Set(["opted-out"]),
      decisions: [],
      plannedContacts: 5000,
    };
    const figures = new ExperimentFigures(setup);
    figures.addCampaign({
      info: campaignInfo({ id: "cmp_a", name: "leads a", variant: "a", state: "finished", audience: 2 }),
      calls: ["+12125550101", "+12125550102"].map((phone) => ({
        phone,
        status: "completed",
        at: T0 + 3 * H,
        durationSec: 60,
        sentiment: "",
        meeting: false,
        transferred: false,
        messageSent: false,
      })),
    });
    figures.addNotMade("b", 3, `failed: ${REASON}`);
    figures.addNotMade("b", 5, `failed: ${REASON}`);
    const r = experimentSection(figures, setup);
    expect(r.variants?.find((v) => v.name === "b")).toMatchObject({
      contactsCalled: 0,
      notMade: { campaigns: 2, contacts: 8, reasons: [`failed: ${REASON}`] },
    });
    expect(experimentLines({ ...builderOf().build(), ...r })).toContainEqual(
      expect.stringMatching(
        /^- b: got nobody; 2 campaigns not made \(8 contacts not called\): failed: no assistant/,
      ),
    );
  });

  it("a report with every campaign made says nothing of them", () => {
    const r = builderOf().build();
    expect(r).not.toHaveProperty("campaignsNotMade");
    expect(reportText(r)).not.toContain("not made");
  });
});
