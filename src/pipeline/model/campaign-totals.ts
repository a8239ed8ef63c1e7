import { addTo, newTally, type Tally, tallyOf } from "../../lib/tally.ts";
import type { CampaignInfo, CampaignSummary, ResultRecord, Unreadable } from "./results.ts";

/**
 * Which statuses end a contact's call for this campaign, mean "try again", mean "opted out", or
 * mean "not over yet"; a status in none of them is unknown, and counts as `unknownIs` says.
 */
export interface StatusClasses {
  final: readonly string[];
  retry: readonly string[];
  optedOut: readonly string[];
  pending: readonly string[];
  unknownIs: "final" | "pending";
}

/** A status in no list (an empty status is a call not started: pending). */
export const isUnknownStatus = (status: string, c: StatusClasses) =>
  status !== "" &&
  !c.final.includes(status) &&
  !c.pending.includes(status) &&
  !c.retry.includes(status) &&
  !c.optedOut.includes(status);

/** Whether a record's call is over. */
export const isFinalStatus = (status: string, c: StatusClasses) =>
  c.final.includes(status) || (c.unknownIs === "final" && isUnknownStatus(status, c));

/** Running totals of a campaign's results, kept up to date change by change; counts by the service's words are tallies. */
export interface CampaignTotals {
  contacts: number;
  final: number;
  byStatus: Tally;
  sentiment: Tally;
  /** Entries with a call that lasted (duration > 0). */
  calls: number;
  durationSec: number;
  meetings: number;
  transfers: number;
  messages: number;
  errors: Tally;
  /** Records whose status is in no list, by status. */
  unknown?: Tally;
  /** Every unknown status a poll has seen in this campaign (each is warned about once). */
  unknownSeen?: string[];
  /** What the last poll that changed something could not read (kept entries lost these fields). */
  unreadable?: Unreadable | undefined;
}

export const emptyTotals = (): CampaignTotals => ({
  contacts: 0,
  final: 0,
  byStatus: newTally(),
  sentiment: newTally(),
  calls: 0,
  durationSec: 0,
  meetings: 0,
  transfers: 0,
  messages: 0,
  errors: newTally(),
});

/** Totals as stored (JSON), their counts made tallies again. */
export function totalsFromJson(json: string | undefined): CampaignTotals {
  const stored = json ? (JSON.parse(json) as CampaignTotals | null) : null;
  if (!stored) return emptyTotals();
  return {
    ...stored,
    byStatus: tallyOf(stored.byStatus),
    sentiment: tallyOf(stored.sentiment),
    errors: tallyOf(stored.errors),
    ...(stored.unknown ? { unknown: tallyOf(stored.unknown) } : {}),
  };
}

/** Adds (`sign` 1) or removes (`sign` -1) one record. Pure apart from mutating `totals`. */
export function applyRecord(
  totals: CampaignTotals,
  r: ResultRecord,
  sign: 1 | -1,
  classes: StatusClasses,
): void {
  totals.contacts += sign;
  if (isFinalStatus(r.status, classes)) totals.final += sign;
  addTo(totals.byStatus, r.status || "none", sign);
  if (isUnknownStatus(r.status, classes)) {
    totals.unknown ??= newTally();
    addTo(totals.unknown, r.status, sign);
  }
  if (r.sentiment) addTo(totals.sentiment, r.sentiment, sign);
  if (r.durationSec > 0) {
    totals.calls += sign;
    totals.durationSec += sign * r.durationSec;
  }
  if (r.meeting) totals.meetings += sign;
  if (r.transferred) totals.transfers += sign;
  if (r.messageSent) totals.messages += sign;
  if (r.error) addTo(totals.errors, errorKey(totals.errors, r.error, sign), sign);
}

/** Distinct error messages counted apart; more are counted together, so totals stay small. */
export const MAX_ERROR_KINDS = 100;
export const OTHER_ERRORS = "(other errors)";

/**
 * Where an error message is counted: under its own text while fewer than MAX_ERROR_KINDS are, else
 * under OTHER_ERRORS (a service that puts ids in its messages would otherwise grow the totals with
 * the audience). A removal takes from the message's own count when it has one, else from the rest.
 */
function errorKey(errors: Tally, message: string, sign: 1 | -1): string {
  if (Object.hasOwn(errors, message)) return message;
  if (sign === 1 && Object.keys(errors).length < MAX_ERROR_KINDS) return message;
  return OTHER_ERRORS;
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
    callsByStatus: tallyOf(totals.byStatus),
    sentiment: tallyOf(totals.sentiment),
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
    ...(totals.unknown && Object.keys(totals.unknown).length > 0
      ? { unknownStatuses: tallyOf(totals.unknown) }
      : {}),
    generatedAt: new Date(now).toISOString(),
  };
}
