import type { CampaignInfo, CampaignSummary, ResultRecord, Unreadable } from "./model.ts";

/** Which statuses end a contact's call for this campaign, mean "try again", or mean "opted out". */
export interface StatusClasses {
  final: readonly string[];
  retry: readonly string[];
  optedOut: readonly string[];
}

/** Running totals of a campaign's results, kept up to date change by change. */
export interface CampaignTotals {
  contacts: number;
  final: number;
  byStatus: Record<string, number>;
  sentiment: Record<string, number>;
  /** Entries with a call that lasted (duration > 0). */
  calls: number;
  durationSec: number;
  meetings: number;
  transfers: number;
  messages: number;
  errors: Record<string, number>;
  /** What the last poll that changed something could not read (kept entries lost these fields). */
  unreadable?: Unreadable | undefined;
}

export const emptyTotals = (): CampaignTotals => ({
  contacts: 0,
  final: 0,
  byStatus: {},
  sentiment: {},
  calls: 0,
  durationSec: 0,
  meetings: 0,
  transfers: 0,
  messages: 0,
  errors: {},
});

function bump(map: Record<string, number>, key: string, by: number): void {
  const next = (map[key] ?? 0) + by;
  if (next === 0) delete map[key];
  else map[key] = next;
}

/** Adds (`sign` 1) or removes (`sign` -1) one record. Pure apart from mutating `totals`. */
export function applyRecord(
  totals: CampaignTotals,
  r: ResultRecord,
  sign: 1 | -1,
  classes: StatusClasses,
): void {
  totals.contacts += sign;
  if (classes.final.includes(r.status)) totals.final += sign;
  bump(totals.byStatus, r.status || "unknown", sign);
  if (r.sentiment) bump(totals.sentiment, r.sentiment, sign);
  if (r.durationSec > 0) {
    totals.calls += sign;
    totals.durationSec += sign * r.durationSec;
  }
  if (r.meeting) totals.meetings += sign;
  if (r.transferred) totals.transfers += sign;
  if (r.messageSent) totals.messages += sign;
  if (r.error) bump(totals.errors, r.error, sign);
}

export const isFinished = (t: CampaignTotals) => t.contacts > 0 && t.final === t.contacts;

/** The summary of a campaign's totals. Pure. */
export function summarize(
  info: CampaignInfo,
  totals: CampaignTotals,
  version: number,
  kind: CampaignSummary["kind"],
  now: number,
): CampaignSummary {
  return {
    kind,
    version,
    campaign: info,
    contacts: totals.contacts,
    callsByStatus: { ...totals.byStatus },
    sentiment: { ...totals.sentiment },
    duration: {
      totalSec: totals.durationSec,
      averageSec: totals.calls > 0 ? Math.round((10 * totals.durationSec) / totals.calls) / 10 : 0,
    },
    meetingsScheduled: totals.meetings,
    transfers: totals.transfers,
    messagesSent: totals.messages,
    errors: Object.entries(totals.errors)
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, 5)
      .map(([message, count]) => ({ message, count })),
    completion: totals.contacts > 0 ? Math.round((10_000 * totals.final) / totals.contacts) / 10_000 : 0,
    ...(totals.unreadable ? { unreadable: totals.unreadable } : {}),
    generatedAt: new Date(now).toISOString(),
  };
}
