import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AUDIENCE_STATUSES } from "../../../src/api/schemas/audience-status.ts";
import { AudienceEntry } from "../../../src/api/schemas/campaign.ts";
import {
  applyRecord,
  emptyTotals,
  isFinished,
  MAX_ERROR_KINDS,
  OTHER_ERRORS,
  type StatusClasses,
  summarize,
  totalsFromJson,
} from "../../../src/pipeline/model/campaign-totals.ts";
import { toRecord } from "../../../src/pipeline/model/result-record.ts";
import type { ResultRecord } from "../../../src/pipeline/model/results.ts";
import { AudienceDiffSink } from "../../../src/pipeline/results/audience-diff.ts";
import { parseFingerprint } from "../../../src/pipeline/results/entry-fingerprint.ts";
import { FingerprintIndex } from "../../../src/pipeline/results/fingerprint-index.ts";
import { summaryLines } from "../../../src/sinks/summary-text.ts";
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

/** The audience entry a record comes from. */
const entryOf = (r: ResultRecord): AudienceEntry => ({
  id: undefined,
  _id: undefined,
  description: undefined,
  phone: r.phone,
  first_name: r.first_name,
  last_name: r.last_name,
  status: r.status,
  call_duration_in_sec: String(r.durationSec),
  call_sentiment: r.sentiment,
  is_call_transferred: r.transferred,
  is_meeting_scheduled: r.meeting,
  is_message_sent: r.messageSent,
  error: r.error,
  recording_url: r.recordingUrl,
  calltranscribe: r.transcript,
});

/** One poll's diff, as the poll makes it, against fingerprints stored in a Map. */
async function diffOf(
  poll: ResultRecord[],
  stored: Map<string, string>,
  index: FingerprintIndex,
  warm: boolean,
) {
  const sink = new AudienceDiffSink({
    index,
    warm,
    storedFingerprints: async (phones) => phones.map((p) => stored.get(p) ?? null),
    spill: async () => {
      throw new Error("nothing spills here");
    },
    dropSpilled: async () => undefined,
  });
  await sink.start();
  for (const r of poll) sink.entry(entryOf(r));
  return sink.finish({ odd: [], dropped: 0 });
}

describe("campaign totals kept up to date through diffs", () => {
  it("equal the totals computed from scratch after any sequence of polls, warm index or cold", async () => {
    const phones = ["+14155550001", "+14155550002", "+14155550003", "+14155550004"];
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(...phones.map(arbRecord)), { minLength: 1, maxLength: 8 }),
        fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
        async (polls, warmth) => {
          const stored = new Map<string, string>();
          const kept = new Map<string, ResultRecord>();
          const totals = emptyTotals();
          let index = new FingerprintIndex();
          for (const [n, poll] of polls.entries()) {
            // A cold poll: another process polled last, this one starts from Redis.
            const warm = n > 0 && warmth[n]!;
            if (!warm) index = new FingerprintIndex();
            const diff = await diffOf(poll, stored, index, warm);
            for (const change of diff.buffered) {
              const old = kept.get(change.phone);
              if (old) applyRecord(totals, old, -1, classes);
              applyRecord(totals, change.record, 1, classes);
              kept.set(change.phone, change.record);
              stored.set(change.phone, change.fingerprint);
              const fp = new Uint32Array(2);
              parseFingerprint(change.fingerprint, fp);
              index.setStored(index.slot(index.keyOf(change.phone), 0), fp[0]!, fp[1]!);
            }
          }
          expect(totals).toEqual(fromScratch(polls.at(-1)!));
        },
      ),
    );
  });

  it("an unchanged poll has no changes and the same digest, in any order", async () => {
    const poll = [record("+14155550001", { status: "completed", durationSec: 30 }), record("+14155550002")];
    const stored = new Map<string, string>();
    const index = new FingerprintIndex();
    const first = await diffOf(poll, stored, index, false);
    expect(first.buffered).toHaveLength(2);
    for (const c of first.buffered) stored.set(c.phone, c.fingerprint);
    const again = await diffOf([...poll].reverse(), stored, new FingerprintIndex(), false);
    expect(again.buffered).toEqual([]);
    expect(again.digest).toBe(first.digest);
    const changed = await diffOf(
      [{ ...poll[0]!, sentiment: "positive" }, poll[1]!],
      stored,
      new FingerprintIndex(),
      false,
    );
    expect(changed.buffered).toHaveLength(1);
    expect(changed.digest).not.toBe(first.digest);
  });

  it("a phone listed twice: the last entry wins, the digest tells the order of its entries", async () => {
    const a = record("+14155550001", { status: "completed" });
    const b = record("+14155550001", { status: "no-answer" });
    const other = record("+14155550002");
    const one = await diffOf([a, other, b], new Map(), new FingerprintIndex(), false);
    expect(one.buffered.map((c) => c.record.status).sort()).toEqual(["no-answer", "queued"].sort());
    expect(one.duplicatePhones).toBe(1);
    const swapped = await diffOf([b, other, a], new Map(), new FingerprintIndex(), false);
    expect(swapped.digest).not.toBe(one.digest);
    const moved = await diffOf([other, a, b], new Map(), new FingerprintIndex(), false);
    expect(moved.digest).toBe(one.digest);
  });
});

describe("error messages in the totals", () => {
  it("at most MAX_ERROR_KINDS kinds, the rest counted together; taking every record out leaves nothing", () => {
    const records = Array.from({ length: MAX_ERROR_KINDS + 50 }, (_, i) =>
      record(`+1415555${1000 + i}`, { status: "failed", error: `SIP 503 call ${i}` }),
    );
    const totals = fromScratch(records);
    expect(Object.keys(totals.errors)).toHaveLength(MAX_ERROR_KINDS + 1);
    expect(totals.errors[OTHER_ERRORS]).toBe(50);
    expect(Object.values(totals.errors).reduce((a, b) => a + b, 0)).toBe(records.length);
    // Out in another order: every count stays >= 0 and all goes back to nothing.
    for (const r of [...records].reverse()) {
      applyRecord(totals, r, -1, classes);
      expect(Object.values(totals.errors).every((n) => n > 0)).toBe(true);
    }
    expect(totals).toEqual(emptyTotals());
  });
});

describe("statuses, sentiments and errors named like Object.prototype's properties (issue 43)", () => {
  const NAMES = ["constructor", "__proto__", "toString", "valueOf", "hasOwnProperty"];
  /** A count's own entries, sorted: what JSON and every page show. */
  const entries = (counts: Record<string, number> | undefined) => Object.entries(counts ?? {}).sort();
  const each = (n: number) => NAMES.map((name) => [name, n]).sort();

  it("are counted as ordinary ones, kept through storage and taken out again; the summary says them", () => {
    const records = NAMES.flatMap((name, i) => [
      record(`+1415555${1000 + i}`, { status: name, sentiment: name, error: name }),
      record(`+1415555${2000 + i}`, { status: name }),
    ]);
    const totals = fromScratch(records);
    expect(entries(totals.byStatus)).toEqual(each(2));
    expect(entries(totals.unknown)).toEqual(each(2)); // in no list of the job's
    expect(entries(totals.sentiment)).toEqual(each(1));
    expect(entries(totals.errors)).toEqual(each(1));
    expect(totals).toMatchObject({ contacts: 10, final: 10 });

    const stored = totalsFromJson(JSON.stringify(totals));
    expect(entries(stored.byStatus)).toEqual(each(2));
    expect(entries(stored.errors)).toEqual(each(1));
    for (const r of records) applyRecord(stored, r, -1, classes);
    for (const counts of [stored.byStatus, stored.unknown, stored.sentiment, stored.errors])
      expect(entries(counts)).toEqual([]);

    const sent = JSON.parse(JSON.stringify(summarize(campaignInfo(), totals, 1, "final", 0)));
    expect(entries(sent.callsByStatus)).toEqual(each(2));
    expect(entries(sent.unknownStatuses)).toEqual(each(2));
    expect(entries(sent.sentiment)).toEqual(each(1));
    expect(sent.errors).toHaveLength(5);
    // The summary points where the status lists live now (decision 0072).
    expect(summaryLines(sent).join("\n")).toMatch(/^Statuses in no list of jobs\/service\.yaml: /m);
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
