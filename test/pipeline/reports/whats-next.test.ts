import { describe, expect, it } from "vitest";
import { JobDefinition } from "../../../src/config/job-definition.ts";
import { emptyTotals } from "../../../src/pipeline/model/campaign-totals.ts";
import { nextReportAt } from "../../../src/pipeline/reports/period.ts";
import { ReportBuilder } from "../../../src/pipeline/reports/report-builder.ts";
import { reportHtml } from "../../../src/pipeline/reports/report-html.ts";
import { reportText } from "../../../src/pipeline/reports/report-text.ts";
import { campaignInfo } from "../../support/fixtures.ts";

const NOW = Date.parse("2026-11-23T16:00:00Z"); // 08:00 in Los Angeles

const job = (reports: unknown[]) =>
  JobDefinition.parse({ name: "z", inbox: "inbox/z", segment: { id: "seg_1" }, reports });

describe("what comes next (issue 40)", () => {
  it("a job's next report: the soonest of its crons, each in its zone; none without reports", () => {
    const def = job([
      { cron: "0 8 * * *", timezone: "America/Los_Angeles", sinks: ["log"] },
      { cron: "30 17 * * *", timezone: "Europe/London", sinks: ["log"] },
    ]);
    // 08:00 in Los Angeles has just passed (it is the tick itself): the next is London's 17:30.
    expect(nextReportAt(def, NOW)).toEqual({ at: Date.parse("2026-11-23T17:30:00Z"), zone: "Europe/London" });
    expect(nextReportAt(def, Date.parse("2026-11-23T18:00:00Z"))).toEqual({
      at: Date.parse("2026-11-24T16:00:00Z"),
      zone: "America/Los_Angeles",
    });
    expect(nextReportAt(job([]), NOW)).toBeUndefined();
  });

  it("the report says the soonest waiting start and the next report, in its zone", () => {
    const b = new ReportBuilder({
      job: "z",
      period: {
        from: new Date(NOW - 86_400_000).toISOString(),
        to: new Date(NOW).toISOString(),
        timezone: "America/Los_Angeles",
        label: "day",
      },
      reached: ["completed"],
      optedOut: [],
      now: NOW,
      resultsOf: (id) => `vcw report ${id}`,
      nextReportAt: Date.parse("2026-11-24T16:00:00Z"),
    });
    const waiting = (id: string, at: string) =>
      b.addCampaign({
        info: campaignInfo({ id, name: `leads ${id}`, state: "active", scheduledAt: at }),
        totals: emptyTotals(),
        zone: "America/Los_Angeles",
        calls: [],
      });
    waiting("later", "2026-11-23T20:00:00Z");
    waiting("sooner", "2026-11-23T17:15:00Z");
    waiting("started", "2026-11-23T15:00:00Z");
    const r = b.build();
    expect(r.next).toEqual({
      start: { name: "leads sooner", at: "2026-11-23T17:15:00.000Z" },
      report: "2026-11-24T16:00:00.000Z",
    });
    const line = "Next: leads sooner starts 2026-11-23 09:15 PST; the next report 2026-11-24 08:00 PST.";
    expect(reportText(r).split("\n")[2]).toBe(line);
    expect(reportHtml(r, [])).toContain(line);
  });
});
