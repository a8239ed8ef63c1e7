import { describe, expect, it } from "vitest";
import { emptyTotals } from "../../../src/pipeline/model/campaign-totals.ts";
import { bucketStarts, bucketUnitOf } from "../../../src/pipeline/reports/buckets.ts";
import { reportCharts } from "../../../src/pipeline/reports/charts.ts";
import type { CallFact } from "../../../src/pipeline/reports/figures.ts";
import { headlines } from "../../../src/pipeline/reports/format.ts";
import { ReportBuilder } from "../../../src/pipeline/reports/report-builder.ts";
import { reportText } from "../../../src/pipeline/reports/report-text.ts";
import { campaignInfo } from "../../support/fixtures.ts";

const H = 3_600_000;
const call = (at: number, status = "completed"): CallFact => ({
  phone: `+1555${at}`,
  status,
  at,
  durationSec: 10,
  sentiment: "",
  meeting: false,
  transferred: false,
  messageSent: false,
});

function report(from: number, to: number, zone: string, calls: CallFact[]) {
  const b = new ReportBuilder({
    job: "j",
    period: {
      from: new Date(from).toISOString(),
      to: new Date(to).toISOString(),
      timezone: zone,
      label: "x",
    },
    reached: ["completed"],
    optedOut: [],
    now: to,
    resultsOf: (id) => id,
  });
  b.addCampaign({ info: campaignInfo({ state: "finished" }), totals: emptyTotals(), zone, calls });
  return b.build();
}

describe("the chart of calls over the period (issue 32 item 1 and the DST fall-back)", () => {
  it("at the DST fall-back the two 01:00 hours are two bars, each with its own calls", async () => {
    // New York, 1 Nov 2026: 01:00 EDT (05:00Z), then 01:00 EST (06:00Z).
    const from = Date.parse("2026-11-01T04:00:00Z");
    const to = Date.parse("2026-11-02T05:00:00Z");
    const r = report(from, to, "America/New_York", [
      call(Date.parse("2026-11-01T05:10:00Z")),
      call(Date.parse("2026-11-01T06:10:00Z"), "busy"),
      call(Date.parse("2026-11-01T06:20:00Z"), "busy"),
    ]);
    expect(r.bucket).toBe("hour");
    expect(r.callsByHour).toHaveLength(25);
    expect(r.callsByHour.slice(1, 3)).toEqual([
      { hour: "2026-11-01T01:00", calls: 1, reached: 1 },
      { hour: "2026-11-01T01:00", calls: 2, reached: 0 },
    ]);
    const [chart] = await reportCharts(r);
    // One bar per bucket and outcome: 25 hours, not 24 with the two 01:00 summed.
    expect(chart!.svg.match(/aria-roledescription="bar"/g)).toHaveLength(50);
  });

  it("labels the axis so it reads: a day's hours by their clock, a week's bars by their day", async () => {
    const midnight = Date.parse("2026-11-25T05:00:00Z"); // New York
    const day = report(midnight, midnight + 24 * H, "America/New_York", [call(midnight + 10 * H)]);
    const [dayChart] = await reportCharts(day);
    const labels = (svg: string) => [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
    expect(labels(dayChart!.svg)).toEqual(expect.arrayContaining(["25 Nov", "03:00", "21:00"]));
    expect(labels(dayChart!.svg).some((l) => /Nov, /.test(l!))).toBe(false);
    const week = report(midnight - 6 * 24 * H, midnight + 24 * H, "America/New_York", [call(midnight)]);
    expect(week.bucket).toBe("day");
    expect(week.callsByHour).toHaveLength(7);
    const [weekChart] = await reportCharts(week);
    // Seven bars a week wide, each a day (an hour's bar on a week's axis would be 1 px).
    expect(weekChart!.svg.match(/aria-roledescription="bar"/g)).toHaveLength(14);
    expect(labels(weekChart!.svg)).toEqual(
      expect.arrayContaining(["19 Nov", "25 Nov", "day (America/New_York)"]),
    );
  });

  it("fits the bars to the period: hours to 3 days, days to 92, months beyond, in the zone's calendar", () => {
    const D = 24 * H;
    expect(bucketUnitOf(0, 3 * D)).toBe("hour");
    expect(bucketUnitOf(0, 7 * D)).toBe("day");
    expect(bucketUnitOf(0, 92 * D)).toBe("day");
    expect(bucketUnitOf(0, 366 * D)).toBe("month");
    // A week across the fall-back: local midnights, one 25 hours long.
    const days = bucketStarts(
      Date.parse("2026-10-29T04:00:00Z"),
      Date.parse("2026-11-05T05:00:00Z"),
      "America/New_York",
      "day",
    );
    expect(days.map((t) => new Date(t).toISOString())).toEqual([
      "2026-10-29T04:00:00.000Z",
      "2026-10-30T04:00:00.000Z",
      "2026-10-31T04:00:00.000Z",
      "2026-11-01T04:00:00.000Z",
      "2026-11-02T05:00:00.000Z",
      "2026-11-03T05:00:00.000Z",
      "2026-11-04T05:00:00.000Z",
    ]);
    const months = bucketStarts(
      Date.parse("2025-11-25T12:00:00Z"),
      Date.parse("2026-11-25T12:00:00Z"),
      "UTC",
      "month",
    );
    expect(months).toHaveLength(13);
    expect(new Date(months[0]!).toISOString()).toBe("2025-11-01T00:00:00.000Z");
    // A year's report counts a call in its month.
    const r = report(Date.parse("2025-11-25T00:00:00Z"), Date.parse("2026-11-25T00:00:00Z"), "UTC", [
      call(Date.parse("2026-03-15T10:00:00Z")),
    ]);
    expect(r.bucket).toBe("month");
    expect(r.callsByHour.find((b) => b.calls > 0)).toEqual({
      hour: "2026-03-01T00:00",
      calls: 1,
      reached: 1,
    });
  });
});

describe("the headline change of a period without calls (issue 32, smaller list)", () => {
  it("a period with no calls after one with calls has no reach change in points", () => {
    const to = Date.parse("2026-11-20T16:00:00Z");
    const day = 24 * H;
    // Calls only in the previous day: 5, 1 reached.
    const r = report(to - day, to, "UTC", [
      call(to - day - 5 * H),
      ...[1, 2, 3, 4].map((h) => call(to - day - h * H, "busy")),
    ]);
    expect(r.totals.calls).toBe(0);
    expect(r.previous.totals.calls).toBe(5);
    const reached = headlines(r).find((h) => h.label === "Reached")!;
    expect(reached.value).toBe("no contacts called");
    expect(reached.change).toBe("no calls in this period");
    expect(reportText(r)).not.toMatch(/pts/);
  });
});
