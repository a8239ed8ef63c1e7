import { addTo, newTally } from "../../lib/tally.ts";
import type { FileRepairs, ReportFiles, ReportTotals } from "./model.ts";

/** One call that ended, as a poll saw it, with what its record says. */
export interface CallFact {
  phone: string;
  status: string;
  /** When a poll first saw its final status (epoch ms). */
  at: number;
  durationSec: number;
  sentiment: string;
  meeting: boolean;
  transferred: boolean;
  messageSent: boolean;
}

/** A contact file that finished importing (or was rejected), as its summary says. */
export interface FileFact {
  status: "imported" | "rejected";
  file: string;
  finishedAt: number;
  rows?: {
    total: number;
    valid: number;
    rejected: number;
    duplicates: number;
    codes: Record<string, number>;
  };
  created?: number;
  notCalled?: { optedOut: number; recentlyCalled: number; byReason?: Record<string, number> };
  repairs?: FileRepairs;
  reason?: string;
}

/** Codes counted on valid rows (warnings) or on rows set aside, not reasons a row was rejected. */
const NOT_REJECTION = new Set([
  "duplicate",
  "opted_out",
  "recently_called",
  "repeated_header",
  "do_not_call",
]);

/**
 * The running figures of one period, fed call by call and file by file: memory grows with the
 * distinct numbers called and distinct durations, not with the number of campaigns.
 */
export class PeriodFigures {
  private readonly phones = new Set<string>();
  private readonly reachedPhones = new Set<string>();
  private readonly durations = new Map<number, number>();
  private readonly reasons = new Map<string, number>();
  private readonly followUpCampaigns = new Set<string>();
  readonly totals: ReportTotals = {
    contactsCalled: 0,
    calls: 0,
    reached: 0,
    reachRate: 0,
    contactsReached: 0,
    contactReachRate: 0,
    optedOut: 0,
    meetings: 0,
    transfers: 0,
    messages: 0,
    byStatus: newTally(),
    sentiment: newTally(),
    talkTime: { totalSec: 0, medianSec: 0 },
    followUps: { campaigns: 0, calls: 0, reached: 0, meetings: 0 },
  };
  readonly files: ReportFiles = {
    imported: 0,
    rejected: 0,
    rowsRead: 0,
    valid: 0,
    rowsRejected: 0,
    duplicates: 0,
    rejectedByReason: [],
    contactsCreated: 0,
    notCalled: { optedOut: 0, recentlyCalled: 0 },
  };

  constructor(
    private readonly reached: ReadonlySet<string>,
    private readonly optedOut: ReadonlySet<string>,
  ) {}

  addCall(c: CallFact, campaign: { id: string; attempt: number }): boolean {
    const t = this.totals;
    const wasReached = this.reached.has(c.status);
    this.phones.add(c.phone);
    t.calls += 1;
    addTo(t.byStatus, c.status);
    if (wasReached) {
      t.reached += 1;
      this.reachedPhones.add(c.phone);
    }
    if (this.optedOut.has(c.status)) t.optedOut += 1;
    if (c.meeting) t.meetings += 1;
    if (c.transferred) t.transfers += 1;
    if (c.messageSent) t.messages += 1;
    if (c.sentiment) addTo(t.sentiment, c.sentiment);
    if (c.durationSec > 0) {
      const sec = Math.round(c.durationSec);
      t.talkTime.totalSec += c.durationSec;
      this.durations.set(sec, (this.durations.get(sec) ?? 0) + 1);
    }
    if (campaign.attempt > 0) {
      this.followUpCampaigns.add(campaign.id);
      t.followUps.calls += 1;
      if (wasReached) t.followUps.reached += 1;
      if (c.meeting) t.followUps.meetings += 1;
    }
    return wasReached;
  }

  addFile(f: FileFact): void {
    const files = this.files;
    if (f.status === "rejected") files.rejected += 1;
    else files.imported += 1;
    if (f.rows) {
      files.rowsRead += f.rows.total;
      files.valid += f.rows.valid;
      files.rowsRejected += f.rows.rejected;
      files.duplicates += f.rows.duplicates;
      if (f.rows.rejected > 0)
        for (const [code, n] of Object.entries(f.rows.codes))
          if (!NOT_REJECTION.has(code)) this.reasons.set(code, (this.reasons.get(code) ?? 0) + n);
    }
    files.contactsCreated += f.created ?? 0;
    if (f.repairs) files.repairs = addRepairs(files.repairs, f.repairs);
    files.notCalled.optedOut += f.notCalled?.optedOut ?? 0;
    files.notCalled.recentlyCalled += f.notCalled?.recentlyCalled ?? 0;
    // Calling rules' other reasons (frequency_cap, outside_hours, call_by_passed), summed by reason.
    for (const [reason, n] of Object.entries(f.notCalled?.byReason ?? {})) {
      if (reason === "opted_out" || reason === "recently_called") continue;
      const byReason = files.notCalled.byReason ?? newTally();
      addTo(byReason, reason, n);
      files.notCalled.byReason = byReason;
    }
  }

  /** The figures, with what is derived from the running counts filled in. */
  finish(): { totals: ReportTotals; files: ReportFiles } {
    const t = this.totals;
    t.contactsCalled = this.phones.size;
    t.reachRate = rate(t.reached, t.calls);
    t.contactsReached = this.reachedPhones.size;
    t.contactReachRate = rate(this.reachedPhones.size, this.phones.size);
    t.talkTime.totalSec = Math.round(t.talkTime.totalSec);
    t.talkTime.medianSec = median(this.durations);
    t.followUps.campaigns = this.followUpCampaigns.size;
    this.files.rejectedByReason = [...this.reasons]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([reason, rows]) => ({ reason, rows }));
    return { totals: t, files: this.files };
  }
}

export const rate = (part: number, whole: number) =>
  whole > 0 ? Math.round((10_000 * part) / whole) / 10_000 : 0;

/** The median of a histogram (value -> count). */
export function median(histogram: ReadonlyMap<number, number>): number {
  let n = 0;
  for (const c of histogram.values()) n += c;
  if (n === 0) return 0;
  const sorted = [...histogram].sort((a, b) => a[0] - b[0]);
  const at = (k: number) => {
    let seen = 0;
    for (const [value, count] of sorted) {
      seen += count;
      if (seen > k) return value;
    }
    return sorted[sorted.length - 1]![0];
  };
  return n % 2 === 1 ? at((n - 1) / 2) : (at(n / 2 - 1) + at(n / 2)) / 2;
}

/** Pure: two files' repairs summed. */
const addRepairs = (a: FileRepairs | undefined, b: FileRepairs): FileRepairs => {
  const copiesAdopted = (a?.copiesAdopted ?? 0) + (b.copiesAdopted ?? 0);
  const calledTwice = (a?.calledTwice ?? 0) + (b.calledTwice ?? 0);
  return {
    duplicatesRemoved: (a?.duplicatesRemoved ?? 0) + b.duplicatesRemoved,
    campaignsRepaired: (a?.campaignsRepaired ?? 0) + b.campaignsRepaired,
    withdrawn: (a?.withdrawn ?? 0) + b.withdrawn,
    ...(copiesAdopted ? { copiesAdopted } : {}),
    ...(calledTwice ? { calledTwice } : {}),
  };
};
