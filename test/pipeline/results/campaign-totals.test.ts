import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AUDIENCE_STATUSES } from "../../../src/api/schemas/audience-status.ts";
import { AudienceEntry } from "../../../src/api/schemas/campaign.ts";
import {
  applyRecord,
  emptyTotals,
  isFinished,
  type StatusClasses,
  summarize,
} from "../../../src/pipeline/results/campaign-totals.ts";
import type { ResultRecord } from "../../../src/pipeline/results/model.ts";
import { diffRecords, fingerprint, toRecord } from "../../../src/pipeline/results/result-record.ts";
import { campaignInfo, resultRecord } from "../../support/fixtures.ts";

const classes: StatusClasses = {
  final: [...AUDIENCE_STATUSES.done, ...AUDIENCE_STATUSES.retry, ...AUDIENCE_STATUSES.optedOut],
  retry: [...AUDIENCE_STATUSES.retry],
  optedOut: [...AUDIENCE_STATUSES.optedOut],
  pending: [...AUDIENCE_STATUSES.pending],
  unknownIs: "final" as const,
};
const STATUSES = [...AUDIENCE_STATUSES.pending, ...classes.final];

const record = resultRecord;

const arbRecord = (phone: string) =>
  fc
    .record({
      status: fc.constantFrom(...STATUSES),
      durationSec: fc.nat(600),
      sentiment: fc.constantFrom("", "positive", "neutral", "negative"),
      meeting: fc.boolean(),
      transferred: fc.boolean(),
      messageSent: fc.boolean(),
      error: fc.constantFrom("", "SIP 503", "Carrier rejected"),
    })
    .map((over) => record(phone, over));

const fromScratch = (records: ResultRecord[]) => {
  const t = emptyTotals();
  for (const r of records) applyRecord(t, r, 1, classes);
  return t;
};

describe("campaign totals kept up to date through diffs", () => {
  it("equal the totals computed from scratch after any sequence of polls", () => {
    const phones = ["+14155550001", "+14155550002", "+14155550003", "+14155550004"];
    fc.assert(
      fc.property(fc.array(fc.tuple(...phones.map(arbRecord)), { minLength: 1, maxLength: 8 }), (polls) => {
        const seen = new Map<string, string>();
        const kept = new Map<string, ResultRecord>();
        const totals = emptyTotals();
        for (const poll of polls) {
          for (const change of diffRecords(seen, poll)) {
            const old = kept.get(change.phone);
            if (old) applyRecord(totals, old, -1, classes);
            applyRecord(totals, change.record, 1, classes);
            kept.set(change.phone, change.record);
            seen.set(change.phone, change.fingerprint);
          }
        }
        expect(totals).toEqual(fromScratch(polls.at(-1)!));
      }),
    );
  });

  it("an unchanged poll has no changes", () => {
    const poll = [record("+1", { status: "completed", durationSec: 30 }), record("+2")];
    const seen = new Map(poll.map((r) => [r.phone, fingerprint(r)]));
    expect(diffRecords(seen, poll)).toEqual([]);
    expect(diffRecords(seen, [{ ...poll[0]!, sentiment: "positive" }, poll[1]!])).toHaveLength(1);
  });
});

describe("summarize", () => {
  const info = campaignInfo({
    name: "leads 2026-11-22 a.csv",
    job: "leads",
    file: "a.csv",
    scheduledAt: "2026-11-22T10:00:00.000Z",
  });

  it("counts statuses, sentiment, durations, meetings, transfers, messages and top errors", () => {
    const totals = fromScratch([
      record("+1", { status: "completed", durationSec: 120, sentiment: "positive", meeting: true }),
      record("+2", {
        status: "completed",
        durationSec: 60,
        sentiment: "neutral",
        transferred: true,
        messageSent: true,
      }),
      record("+3", { status: "failed", error: "SIP 503" }),
      record("+4", { status: "failed", error: "SIP 503" }),
      record("+5", { status: "ringing" }),
    ]);
    const s = summarize(info, totals, 3, "progress", Date.parse("2026-11-22T11:00:00Z"));
    expect(s).toMatchObject({
      contacts: 5,
      callsByStatus: { completed: 2, failed: 2, ringing: 1 },
      sentiment: { positive: 1, neutral: 1 },
      duration: { totalSec: 180, averageSec: 90 },
      meetingsScheduled: 1,
      transfers: 1,
      messagesSent: 1,
      errors: [{ message: "SIP 503", count: 2 }],
      completion: 0.8,
      version: 3,
    });
    expect(isFinished(totals)).toBe(false);
  });

  it("toRecord reads the tolerant entry: string durations, flags, case", () => {
    expect(
      toRecord(
        AudienceEntry.parse({
          phone: " +14155550001 ",
          status: "Completed",
          call_duration_in_sec: "42",
          is_meeting_scheduled: true,
        }),
      ),
    ).toMatchObject({ phone: "+14155550001", status: "completed", durationSec: 42, meeting: true });
    expect(toRecord(AudienceEntry.parse({ status: "completed" }))).toBeUndefined();
  });
});
