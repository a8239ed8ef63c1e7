import { describe, expect, it } from "vitest";
import { emptyTotals } from "../../../src/pipeline/model/campaign-totals.ts";
import { campaignListing } from "../../../src/pipeline/reports/campaign-list.ts";
import type { ReportPeriod } from "../../../src/pipeline/reports/model.ts";
import { ReportBuilder } from "../../../src/pipeline/reports/report-builder.ts";
import { reportHtml } from "../../../src/pipeline/reports/report-html.ts";
import { reportText } from "../../../src/pipeline/reports/report-text.ts";
import type { StoredCampaign } from "../../../src/pipeline/stores/campaign-store.ts";
import { reportBlocks } from "../../../src/sinks/slack/report-slack.ts";
import { campaignInfo } from "../../support/fixtures.ts";

const NOW = Date.parse("2026-11-23T16:00:00Z"); // 08:00 in Los Angeles
const H = 3_600_000;
const LA = "America/Los_Angeles";

/** The report of `period` at NOW with `campaigns` (each created an hour before NOW unless said). */
function report(period: ReportPeriod, campaigns: readonly StoredCampaign[]) {
  const b = new ReportBuilder({
    job: "z",
    period,
    reached: ["completed"],
    optedOut: [],
    now: NOW,
    resultsOf: (id) => `vcw report ${id}`,
  });
  for (const c of campaigns)
    if (b.concerns(c.createdAt, c.endedAt)) b.addCampaign({ ...c, zone: LA, calls: [] });
  return b.build();
}

/** A campaign vcw keeps: made at `createdAt`, starting at `startsAt`, for 20 contacts. */
const kept = (id: string, startsAt: number, createdAt = NOW - H): StoredCampaign => ({
  info: campaignInfo({
    id,
    name: `leads ${id}`,
    job: "z",
    zone: LA,
    state: "active",
    scheduledAt: new Date(startsAt).toISOString(),
    audience: 20,
  }),
  totals: emptyTotals(),
  version: 0,
  digest: "",
  createdAt,
  lastChangeAt: createdAt,
  endedAt: 0,
  sentVersion: 0,
});

const lastDay: ReportPeriod = {
  from: new Date(NOW - 24 * H).toISOString(),
  to: new Date(NOW).toISOString(),
  timezone: LA,
  label: "24h",
};

describe("campaigns waiting for their start in the period's report", () => {
  it("are listed and counted as waiting, with their planned start, as `vcw campaigns` lists them", () => {
    // Made in the period; one waits for its calling window (10:00 there), one for tomorrow's.
    const campaigns = [kept("soon", NOW + 2 * H), kept("tomorrow", NOW + 24 * H)];
    const r = report(lastDay, campaigns);
    expect(r.campaigns.map((c) => [c.id, c.state, c.scheduledAt, c.contacts])).toEqual([
      ["tomorrow", "waiting", "2026-11-24T16:00:00.000Z", 20],
      ["soon", "waiting", "2026-11-23T18:00:00.000Z", 20],
    ]);
    // The same campaigns, the same state, as `vcw campaigns` lists them.
    for (const c of campaigns) expect(campaignListing(c, undefined, NOW).state).toBe("waiting");

    const text = reportText(r);
    expect(text).not.toContain("Campaigns (0)");
    expect(text).toContain("Campaigns (2, 2 waiting to start):");
    expect(text).toContain(
      "- leads soon [waiting until 2026-11-23 10:00 PST] America/Los_Angeles: 20 contacts",
    );
    expect(text).toContain("- leads tomorrow [waiting until 2026-11-24 08:00 PST]");
    const html = reportHtml(r, []);
    expect(html).toContain("Campaigns (2, 2 waiting to start)");
    expect(html).toContain("waiting until 2026-11-23 10:00 PST");
    expect(JSON.stringify(reportBlocks(r))).toContain("2 campaigns (2 waiting to start)");
  });

  it("a scheduled report of a past day lists those made that day and still waiting; none made after it", () => {
    const yesterday: ReportPeriod = {
      from: new Date(NOW - 32 * H).toISOString(),
      to: new Date(NOW - 8 * H).toISOString(),
      timezone: LA,
      label: "day",
    };
    const r = report(yesterday, [
      kept("made-that-day", NOW + 2 * H, NOW - 10 * H),
      kept("made-since", NOW + 2 * H, NOW - 2 * H),
    ]);
    expect(r.campaigns.map((c) => [c.id, c.state])).toEqual([["made-that-day", "waiting"]]);
    expect(reportText(r)).toContain("Campaigns (1, 1 waiting to start):");
  });

  it("a follow-up made and waiting to start is said under Follow-ups, not only '0 calls in 0 campaigns'", () => {
    const followUp = kept("again", NOW + 2 * H);
    followUp.info.attempt = 1;
    const r = report(lastDay, [kept("first", NOW - H), followUp]);
    const line = "Follow-ups: 0 calls in 0 campaigns: 0 reached, 0 meetings; 1 follow-up waiting to start";
    expect(reportText(r)).toContain(line);
    expect(reportHtml(r, [])).toContain("0 meetings; 1 follow-up waiting to start");
    // None waiting: the line as it was.
    expect(reportText(report(lastDay, [kept("first", NOW - H)]))).toContain(
      "Follow-ups: 0 calls in 0 campaigns: 0 reached, 0 meetings\n",
    );
  });

  it("a campaign calling is active as before; the count says how many wait", () => {
    const r = report(lastDay, [kept("calling", NOW - H), kept("soon", NOW + 2 * H)]);
    expect(r.campaigns.map((c) => [c.id, c.state])).toEqual([
      ["soon", "waiting"],
      ["calling", "active"],
    ]);
    expect(reportText(r)).toContain("Campaigns (2, 1 waiting to start):");
    expect(reportText(r)).toContain("- leads calling [active]");
  });
});
