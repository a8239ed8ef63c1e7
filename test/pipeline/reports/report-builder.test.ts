import { describe, expect, it } from "vitest";
import { tallyOf } from "../../../src/lib/tally.ts";
import { emptyTotals } from "../../../src/pipeline/model/campaign-totals.ts";
import type { CampaignInfo } from "../../../src/pipeline/model/results.ts";
import { CallEnds } from "../../../src/pipeline/reports/call-ends.ts";
import type { CallFact } from "../../../src/pipeline/reports/figures.ts";
import { fileFactOf } from "../../../src/pipeline/reports/import-facts.ts";
import { askedPeriod, parseDuration, scheduledPeriod } from "../../../src/pipeline/reports/period.ts";
import { ReportBuilder } from "../../../src/pipeline/reports/report-builder.ts";
import { reportText } from "../../../src/pipeline/reports/report-text.ts";

const T0 = Date.parse("2026-11-20T08:00:00Z");
const H = 3_600_000;
const period = {
  from: new Date(T0).toISOString(),
  to: new Date(T0 + 24 * H).toISOString(),
  timezone: "UTC",
  label: "day",
};

const info = (id: string, over: Partial<CampaignInfo> = {}): CampaignInfo => ({
  id,
  name: `Campaign ${id}`,
  job: "leads",
  file: "f.csv",
  sha256: "ab",
  gen: 1,
  segmentId: "seg",
  scheduledAt: new Date(T0 - H).toISOString(),
  state: "finished",
  attempt: 0,
  followUps: [],
  ...over,
});

const call = (phone: string, status: string, at: number, over: Partial<CallFact> = {}): CallFact => ({
  phone,
  status,
  at,
  durationSec: 0,
  sentiment: "",
  meeting: false,
  transferred: false,
  messageSent: false,
  ...over,
});

const builder = (statuses = { reached: ["completed"], optedOut: ["opted-out"] }) =>
  new ReportBuilder({
    job: "leads",
    period,
    ...statuses,
    now: T0 + 24 * H,
    resultsOf: (id) => `vcw report ${id}`,
  });

describe("the report builder", () => {
  it("counts calls, distinct numbers, reach, talk time and follow-ups in the period, and the change", () => {
    const b = builder();
    b.addCampaign({
      info: info("c1", { zone: "America/New_York" }),
      totals: {
        ...emptyTotals(),
        contacts: 4,
        byStatus: { completed: 2, "no-answer": 1, "opted-out": 1 },
        meetings: 1,
      },
      zone: "America/New_York",
      calls: [
        call("+15550001", "completed", T0 + 14 * H, {
          durationSec: 60,
          meeting: true,
          sentiment: "positive",
        }),
        call("+15550002", "completed", T0 + 14 * H + 60_000, { durationSec: 120, transferred: true }),
        call("+15550003", "no-answer", T0 + 15 * H),
        call("+15550004", "opted-out", T0 + 16 * H, { durationSec: 30 }),
        call("+15550009", "completed", T0 - 2 * H, { durationSec: 10 }), // previous period
      ],
    });
    b.addCampaign({
      info: info("c2", { attempt: 1, name: "Follow-up" }),
      totals: { ...emptyTotals(), contacts: 1, byStatus: { completed: 1 } },
      zone: "UTC",
      calls: [call("+15550003", "completed", T0 + 20 * H, { durationSec: 90, meeting: true })],
    });
    const r = b.build();
    expect(r.totals).toMatchObject({
      contactsCalled: 4,
      calls: 5,
      reached: 3,
      reachRate: 0.6,
      optedOut: 1,
      meetings: 2,
      transfers: 1,
      byStatus: { completed: 3, "no-answer": 1, "opted-out": 1 },
      talkTime: { totalSec: 300, medianSec: 75 },
      followUps: { campaigns: 1, calls: 1, reached: 1, meetings: 1 },
    });
    expect(r.previous.totals).toMatchObject({ calls: 1, reached: 1, contactsCalled: 1 });
    expect(r.change.calls).toEqual({ delta: 4, ratio: 4 });
    expect(r.change.reachRate).toEqual({ delta: -0.4, ratio: -0.4 });
    expect(r.campaigns.map((c) => [c.id, c.callsInPeriod, c.reached, c.reachRate])).toEqual([
      ["c1", 4, 2, 0.5],
      ["c2", 1, 1, 1],
    ]);
    // 22:00 UTC is 17:00 in New York (EST): the callee's local hour.
    expect(r.reachByLocalHour[17]).toMatchObject({ calls: 2, reached: 2, reachRate: 1 });
    expect(r.reachByLocalHour[18]).toMatchObject({ calls: 1, reached: 0, reachRate: 0 });
    expect(r.reachByLocalHour[4]).toMatchObject({ calls: 1, reached: 1 });
    expect(r.callsByHour).toHaveLength(24);
    expect(r.callsByHour[14]).toEqual({ hour: "2026-11-20T22:00", calls: 2, reached: 2 });
    expect(r.timesNote).toMatch(/as observed by polling/);
  });

  it("statuses and sentiments named like Object.prototype's properties are counted as any other (issue 43)", () => {
    const b = builder({ reached: ["constructor"], optedOut: ["__proto__"] });
    const byStatus = Object.fromEntries([
      ["constructor", 2],
      ["__proto__", 1],
      ["toString", 1],
    ]);
    b.addCampaign({
      info: info("c1"),
      totals: { ...emptyTotals(), contacts: 4, byStatus: tallyOf(byStatus) },
      zone: "UTC",
      calls: [
        call("+15550001", "constructor", T0 + H, { sentiment: "toString" }),
        call("+15550002", "constructor", T0 + 2 * H, { sentiment: "valueOf" }),
        call("+15550003", "__proto__", T0 + 3 * H, { sentiment: "toString" }),
        call("+15550004", "toString", T0 + 4 * H),
      ],
    });
    const r = b.build();
    expect(Object.entries(r.totals.byStatus).sort()).toEqual(Object.entries(byStatus).sort());
    expect(Object.entries(r.totals.sentiment).sort()).toEqual([
      ["toString", 2],
      ["valueOf", 1],
    ]);
    expect(r.totals).toMatchObject({ calls: 4, reached: 2, optedOut: 1 });
    expect(r.campaigns[0]).toMatchObject({ reached: 2 });
    const text = reportText(r);
    expect(text).toContain("Calls by outcome: constructor 2, __proto__ 1, toString 1");
    expect(text).not.toContain("native code");
  });

  it("counts files of the period, rejection reasons, and lists problems", () => {
    const b = builder();
    b.addFile({
      status: "imported",
      file: "a.csv",
      finishedAt: T0 + H,
      rows: {
        total: 10,
        valid: 7,
        rejected: 2,
        duplicates: 1,
        codes: { invalid_phone: 2, duplicate: 1, opted_out: 1 },
      },
      created: 6,
      notCalled: { optedOut: 1, recentlyCalled: 2 },
    });
    b.addFile({ status: "rejected", file: "b.csv", finishedAt: T0 + 2 * H, reason: "no phone column" });
    b.addFile({
      status: "imported",
      file: "old.csv",
      finishedAt: T0 - H,
      rows: { total: 5, valid: 5, rejected: 0, duplicates: 0, codes: {} },
    });
    b.addCampaign({
      info: info("s1", { state: "stuck" }),
      totals: { ...emptyTotals(), contacts: 3, unknown: { weird: 2 } },
      zone: "UTC",
      calls: [],
    });
    b.addFailedDelivery({ sink: "mail", reason: "SMTP refused", at: T0 + 3 * H });
    const r = b.build();
    expect(r.files).toMatchObject({
      imported: 1,
      rejected: 1,
      rowsRead: 10,
      valid: 7,
      rowsRejected: 2,
      duplicates: 1,
      contactsCreated: 6,
      rejectedByReason: [{ reason: "invalid_phone", rows: 2 }],
      notCalled: { optedOut: 1, recentlyCalled: 2 },
    });
    expect(r.previous.files.rowsRead).toBe(5);
    expect(r.problems.map((p) => p.kind)).toEqual([
      "rejected-file",
      "stuck-campaign",
      "unknown-status",
      "failed-delivery",
    ]);
    expect(r.campaigns.map((c) => c.id)).toEqual(["s1"]);
  });

  it("leaves out campaigns that ended before the previous period", () => {
    const b = builder();
    expect(b.concerns(T0 - 72 * H, T0 - 48 * H)).toBe(false);
    expect(b.concerns(T0 - 72 * H, T0 - 12 * H)).toBe(true);
    expect(b.concerns(T0 + 25 * H, 0)).toBe(false);
  });
});

describe("call ends", () => {
  const classes = {
    final: ["completed", "no-answer", "opted-out"],
    retry: ["no-answer"],
    optedOut: ["opted-out"],
    pending: ["queued", "ringing"],
    unknownIs: "final" as const,
  };
  it("keeps when a call was first seen final, and its last final status", () => {
    const e = new CallEnds(classes);
    e.add({ phone: "a", to: "ringing", at: 1 });
    e.add({ phone: "a", to: "completed", at: 2 });
    e.add({ phone: "a", to: "opted-out", at: 3 });
    e.add({ phone: "b", to: "queued", at: 1 });
    expect([...e.ends]).toEqual([["a", { at: 2, status: "opted-out" }]]);
  });
});

describe("periods", () => {
  it("a day ending at 08:00 in Los Angeles across the end of daylight time is 25 hours", () => {
    const at = Date.parse("2026-11-01T16:00:00Z"); // 08:00 PST, the day DST ended
    const p = scheduledPeriod("day", at, "America/Los_Angeles");
    expect(p).toMatchObject({ from: "2026-10-31T15:00:00.000Z", to: "2026-11-01T16:00:00.000Z" });
    expect(scheduledPeriod("since-last", at, "UTC", at - 3 * H).from).toBe(
      new Date(at - 3 * H).toISOString(),
    );
    expect(scheduledPeriod("month", Date.parse("2026-03-01T00:00:00Z"), "UTC").from).toBe(
      "2026-02-01T00:00:00.000Z",
    );
  });
  it("reads durations and ranges from the command line, with clear errors", () => {
    expect(parseDuration("24h")).toBe(24 * H);
    expect(parseDuration("7d")).toBe(168 * H);
    expect(askedPeriod({ since: "2 days" }, T0, "UTC")).toEqual({
      error: "--since 2 days is not a duration such as 90m, 24h, 7d or 2w",
    });
    expect(askedPeriod({ from: "2026-11-02", to: "2026-11-01" }, T0, "UTC")).toEqual({
      error: "--from must be before --to",
    });
  });
});

describe("import summaries", () => {
  it("reads what vcw wrote and ignores anything else", () => {
    expect(fileFactOf("not json")).toBeUndefined();
    expect(fileFactOf(JSON.stringify({ status: "imported" }))).toBeUndefined();
    expect(
      fileFactOf(
        JSON.stringify({
          status: "rejected",
          original: "x.csv",
          finishedAt: "2026-11-20T10:00:00Z",
          reason: "empty",
        }),
      ),
    ).toEqual({
      status: "rejected",
      file: "x.csv",
      finishedAt: Date.parse("2026-11-20T10:00:00Z"),
      reason: "empty",
    });
  });
});

describe("repairs before calling (issue 28)", () => {
  it("a file's listed duplicates and its campaigns' checks are summed into the report and said in its text and page", async () => {
    const { reportText } = await import("../../../src/pipeline/reports/report-text.ts");
    const { reportHtml } = await import("../../../src/pipeline/reports/report-html.ts");
    const summary = (over: object) =>
      fileFactOf(
        JSON.stringify({
          status: "imported",
          original: "r.csv",
          finishedAt: new Date(T0 + H).toISOString(),
          ...over,
        }),
      )!;
    const b = builder();
    b.addFile(
      summary({
        created: 10,
        listed: { duplicatesRemoved: 2 },
        checksBeforeStart: { duplicatesRemoved: 1, campaignsRepaired: 1, withdrawn: 3, campaigns: [] },
      }),
    );
    b.addFile(summary({ created: 5, listed: { duplicatesRemoved: 0 } }));
    b.addFile(summary({ created: 4 }));
    const r = b.build();
    expect(r.files.contactsCreated).toBe(19);
    expect(r.files.repairs).toEqual({ duplicatesRemoved: 3, campaignsRepaired: 1, withdrawn: 3 });
    const line = "3 duplicate contacts removed, 1 campaign made again, 3 contacts withdrawn";
    expect(reportText(r)).toContain(`Repaired before calling: ${line}`);
    expect(reportHtml(r, [])).toContain(line);
  });

  it("a report of files with nothing to say of repairs has none", () => {
    const b = builder();
    b.addFile(
      fileFactOf(
        JSON.stringify({
          status: "imported",
          original: "r.csv",
          finishedAt: new Date(T0 + H).toISOString(),
          created: 1,
        }),
      )!,
    );
    expect(b.build().files.repairs).toBeUndefined();
  });
});

describe("campaign listings", () => {
  it("a campaign whose start is still to come is waiting, with its local start and zone", async () => {
    const { campaignListing, listingLine } = await import("../../../src/pipeline/reports/campaign-list.ts");
    const now = Date.parse("2026-11-23T10:00:00Z");
    const stored = {
      info: info("c9", {
        state: "active",
        zone: "America/Los_Angeles",
        scheduledAt: "2026-11-23T16:00:00.000Z",
      }),
      totals: { ...emptyTotals(), contacts: 5 },
      version: 0,
      digest: "",
      createdAt: now,
      lastChangeAt: now,
      endedAt: 0,
      sentVersion: 0,
    };
    const c = campaignListing(stored, undefined, now);
    expect(c).toMatchObject({
      state: "waiting",
      zone: "America/Los_Angeles",
      scheduledStart: {
        local: "2026-11-23 08:00",
        zone: "America/Los_Angeles",
        at: "2026-11-23T16:00:00.000Z",
      },
      contacts: 5,
    });
    expect(listingLine(c)).toContain("[waiting until 2026-11-23 08:00 PST (America/Los_Angeles)]");
    // Nobody called yet: the line says so, not "reached no contacts called".
    expect(listingLine({ ...c, contacts: 0 })).toContain(
      "0 contacts, 0 done, no contacts called, 0 meetings",
    );
    expect(campaignListing(stored, undefined, Date.parse("2026-11-23T17:00:00Z")).state).toBe("active");
  });
});

describe("the report builder, campaigns that ran past their window (issue 20)", () => {
  it("flags the campaign in its row and among the problems", () => {
    const b = builder();
    b.addCampaign({
      info: info("late"),
      totals: { ...emptyTotals(), contacts: 2, final: 2, byStatus: { completed: 2 } },
      zone: "UTC",
      calls: [call("+14155550100", "completed", T0 + H), call("+14155550101", "completed", T0 + 2 * H)],
      ranPastWindow: true,
    });
    b.addCampaign({
      info: info("fine"),
      totals: emptyTotals(),
      zone: "UTC",
      calls: [call("+1", "busy", T0 + H)],
    });
    const r = b.build();
    expect(r.campaigns.find((c) => c.id === "late")).toMatchObject({ ranPastWindow: true });
    expect(r.campaigns.find((c) => c.id === "fine")?.ranPastWindow).toBeUndefined();
    expect(r.problems).toEqual([
      {
        kind: "ran-past-window",
        message: expect.stringContaining("campaign Campaign late (late) ran past its calling window"),
      },
    ]);
  });
});
