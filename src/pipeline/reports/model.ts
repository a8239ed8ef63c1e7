/**
 * The report model: what a manager reads of one period (a job, or all jobs). Plain data, built by
 * `report-builder.ts` and read by every renderer (page, e-mail, Slack, JSON). No I/O.
 */

import type { CampaignSummary } from "../model/results.ts";

export interface ReportPeriod {
  /** ISO instants; `to` is excluded. */
  from: string;
  to: string;
  /** The zone the report's clock times are written in (IANA). */
  timezone: string;
  /** How it was asked for: day, week, month, since-last, or a duration/range from the CLI. */
  label: string;
}

/** The figures of one period. */
export interface ReportTotals {
  /** Distinct numbers whose call ended in the period (as observed by polling). */
  contactsCalled: number;
  /** Calls that ended in the period: a contact called by a campaign and its follow-up counts twice. */
  calls: number;
  /** Calls that ended in a status of `polling.statuses.reached`. */
  reached: number;
  /** reached / calls, 0..1 (0 without calls): reach per call (`reach.ts`). */
  reachRate: number;
  /** Distinct numbers with a call that ended reached; absent from reports queued before it. */
  contactsReached?: number;
  /** contactsReached / contactsCalled, 0..1: reach per contact (`reach.ts`). */
  contactReachRate?: number;
  optedOut: number;
  meetings: number;
  transfers: number;
  messages: number;
  /** Calls by their final status. */
  byStatus: Record<string, number>;
  sentiment: Record<string, number>;
  talkTime: { totalSec: number; medianSec: number };
  /** Calls of follow-up campaigns (attempt > 0) and what they added. */
  followUps: { campaigns: number; calls: number; reached: number; meetings: number };
}

/** Contact files finished (imported or rejected) in the period. */
export interface ReportFiles {
  imported: number;
  rejected: number;
  rowsRead: number;
  valid: number;
  rowsRejected: number;
  duplicates: number;
  /** Problem codes of rejected rows, most frequent first. */
  rejectedByReason: { reason: string; rows: number }[];
  /** Contacts created in the service. */
  contactsCreated: number;
  /** Valid rows not put in a campaign, and why; under calling rules, every reason (`frequency_cap`...). */
  notCalled: { optedOut: number; recentlyCalled: number; byReason?: Record<string, number> };
  /** What was repaired before anyone was called (issue 28), as the services' listings showed it; absent when no file says. */
  repairs?: FileRepairs;
}

/** Repairs of a file's contacts and campaigns before their start, counted from the service's listings. */
export interface FileRepairs {
  /** Extra copies of a phone deleted (after the import, and before each campaign's start). */
  duplicatesRemoved: number;
  /** Campaigns found twice under one name: both emptied, one fresh campaign made. */
  campaignsRepaired: number;
  /** Contacts taken out before the start: opted out or put on a do-not-call list since the import. */
  withdrawn: number;
  /** Late copies of a campaign (a create applied late) vcw took on: polled and counted with the file's calls. */
  copiesAdopted?: number;
  /** Calls made twice: both copies had started with the same people (decision 0065). */
  calledTwice?: number;
}

export interface ReportCampaign {
  id: string;
  name: string;
  job: string;
  zone?: string;
  /** Its start: the planned one while it waits. */
  scheduledAt: string;
  /**
   * waiting: active, its start (its calling window) still to come when the report was made, as
   * `vcw campaigns` says it; listed when it was made by the period's end, though it has called nobody.
   */
  state: "active" | "waiting" | "finished" | "stuck";
  attempt: number;
  contacts: number;
  /** Over the campaign's whole life (not only the period). */
  reached: number;
  reachRate: number;
  meetings: number;
  /** Calls of this campaign that ended in the period. */
  callsInPeriod: number;
  /** Where its results are: a link when VCW_PUBLIC_URL is set, else the `vcw report` command. */
  results: string;
  /** Its page and results CSV, where there is a page (VCW_PUBLIC_URL, or the dashboard serving the report). */
  links?: { page: string; csv: string };
  /** Calls started after its window closed (issue 20). */
  ranPastWindow?: boolean;
  /** The number it called from: its pool dialer's (`campaign.dialers`). */
  callerNumber?: string;
}

/** One caller number of a pool: its campaigns' contacts and reach over their lives, its calls in the period. */
export interface ReportNumber {
  number: string;
  campaigns: number;
  contacts: number;
  reached: number;
  reachRate: number;
  callsInPeriod: number;
}

/**
 * A campaign asked for in the period and never made (issue 40): its create failed for good (the
 * service refused it), or vcw refused it (no opening left). Its contacts were not called.
 */
export interface ReportCampaignNotMade {
  name: string;
  job: string;
  file: string;
  zone?: string;
  variant?: string;
  attempt: number;
  /** Its contacts, when the request said (a file's own campaigns do). */
  contacts: number | null;
  outcome: "failed" | "refused";
  reason: string;
  at: string;
}

export interface HourBucket {
  /**
   * Start of the bucket (an hour, day or month: `ReportModel.bucket`), as wall-clock time in the
   * report's zone (ISO without offset). At a DST fall-back two hourly buckets read the same.
   */
  hour: string;
  calls: number;
  reached: number;
}

export interface LocalHour {
  /** 0..23, in the callee's zone (the campaign's zone). */
  hour: number;
  calls: number;
  reached: number;
  reachRate: number;
}

export interface ReportProblem {
  kind:
    | "rejected-file"
    | "stuck-campaign"
    | "unknown-status"
    | "failed-delivery"
    | "ran-past-window"
    | "campaign-not-made";
  /** One line an operator can act on. */
  message: string;
}

/** Change from the previous period: absolute difference, and relative (null when the base is 0). */
export interface Change {
  delta: number;
  ratio: number | null;
}

/** A share of contacts with its Wilson 95% interval (experiment-stats.ts). */
export interface RateInterval {
  rate: number;
  low: number;
  high: number;
}

/**
 * One experiment variant's figures (`campaign.variants`): per contact, the unit of assignment,
 * cumulative over the experiment (every call of a contact, follow-ups too), whatever the period.
 */
export interface ReportVariant {
  name: string;
  contactsCalled: number;
  calls: number;
  /** Contacts with a call in `reachedStatuses`, and their share of the contacts called. */
  reached: number;
  reachedRate: RateInterval;
  /** Contacts with a meeting booked, transferred, opted out. */
  meetings: number;
  meetingRate: RateInterval;
  transfers: number;
  transferRate: RateInterval;
  optedOut: number;
  optOutRate: RateInterval;
  talkTime: { totalSec: number; perContactSec: number };
  /** Calls by sentiment. */
  sentiment: Record<string, number>;
  /** Its comparison with the first variant on the experiment's metric (absent on the first). */
  versus?: VariantComparison;
  /** Its planned share of the contacts (0..1). */
  share?: number;
  /** Contacts given this variant (the intention to treat), and why those not called are missing. */
  assigned?: number;
  missing?: Partial<Record<MissingReason, number>>;
  /** Its guardrail metrics, against the limit or the first variant, always-valid and corrected. */
  guardrails?: GuardrailReading[];
  /** Its campaigns not made over the experiment, the contacts they left uncalled, and why (each reason once); absent when none. */
  notMade?: { campaigns: number; contacts: number; reasons: string[] };
}

/** Why a contact given a variant has no call that ended (experiment-missing.ts). */
export type MissingReason =
  | "set-aside"
  | "no-campaign"
  | "waiting"
  | "window-closed"
  | "opted-out"
  | "frequency-cap"
  | "operator"
  | "not-called";

/** A guardrail metric of one variant: its value, and its always-valid interval at the level it was held to. */
export interface GuardrailReading {
  metric: "optOuts" | "transfers" | "talkTime";
  /** Opt-outs against `maxOptOutRate`: the limit, and `value` is the variant's rate; else a difference from the first variant. */
  limit?: number;
  value: number;
  low: number;
  high: number;
  level: number;
  /** Opt-outs surely above the limit; a difference clear of zero. */
  flagged: boolean;
}

/** The sample ratio check (experiment-sample-ratio.ts): the split of contacts against the plan. */
export interface SampleRatioCheck {
  /** Which split: contacts given each variant against the shares, or contacts called against those given. */
  of: "assigned" | "called";
  chiSquare: number;
  p: number;
  mismatch: boolean;
  /** In words: the counts, and why contacts are missing where they are. */
  words: string;
}

export interface VariantComparison {
  against: string;
  metric: "reached" | "meetings" | "transfers";
  /** This variant's rate less the other's, with Newcombe's 95% interval. */
  difference: { value: number; low: number; high: number };
  /** better or worse: the always-valid interval is clear of zero; undecided: it holds zero. */
  verdict: "better" | "worse" | "undecided";
  /**
   * The always-valid interval of the difference at the level Holm held it to (the decisions'), and
   * its p; `difference` above is the fixed-horizon one, right at one planned look only.
   */
  sequential?: { low: number; high: number; level: number; p: number };
  /** The comparison in words. */
  words: string;
}

export interface ReportModel {
  kind: "report";
  /** The job, or "all" for every job. */
  job: string;
  generatedAt: string;
  period: ReportPeriod;
  /** What "reached" means here (the statuses). */
  reachedStatuses: string[];
  /** Said on every rendering: times are when a poll saw a change, not when the call ended. */
  timesNote: string;
  totals: ReportTotals;
  files: ReportFiles;
  campaigns: ReportCampaign[];
  /** Campaigns not made in the period, newest first; absent when none (and from reports queued before it). */
  campaignsNotMade?: ReportCampaignNotMade[];
  /** Calls over the period, in buckets of `bucket`, fitted to its length (hours up to 3 days, days up to 92, then months). */
  callsByHour: HourBucket[];
  /** Absent from reports queued by versions before it: hours. */
  bucket?: "hour" | "day" | "month";
  reachByLocalHour: LocalHour[];
  problems: ReportProblem[];
  previous: { period: ReportPeriod; totals: ReportTotals; files: ReportFiles };
  /**
   * What comes next, as of `generatedAt`: the soonest start of a campaign still waiting for it, and
   * the job's next scheduled report (ISO); absent when neither (and from reports queued before it).
   */
  next?: { start?: { name: string; at: string }; report?: string };
  /** The page of this report on the daemon (VCW_PUBLIC_URL set): Slack and e-mail link to it. */
  pageUrl?: string;
  change: Record<"contactsCalled" | "calls" | "reached" | "reachRate" | "optedOut" | "meetings", Change> & {
    /** Absent from reports queued before it. */
    contactReachRate?: Change;
  };
  /** A job with `campaign.variants`: each variant's figures, and the comparison in words. */
  variants?: ReportVariant[];
  experiment?: ExperimentSummary;
  /** A job with a dialer pool: each caller number's figures (absent without one). */
  numbers?: ReportNumber[];
}

export const TIMES_NOTE =
  "Times are as observed by polling: a call counts when a poll first saw its final status, up to one polling interval after it ended.";

/** The experiment as a whole: its verdict, and what a reader must know to trust it. */
export interface ExperimentSummary {
  metric: VariantComparison["metric"];
  summary: string;
  /** `campaign.experiment.name`, when set. */
  name?: string;
  /** The corrections made, in words: across variants and across metrics. */
  corrections?: string;
  /** The sample ratio checks; a mismatch makes the comparison unreliable (the guardrail holds). */
  sampleRatio?: SampleRatioCheck[];
  /** After a stop or promote: the comparisons are over the time both variants were open, said here. */
  concurrent?: string;
  /** Contacts called under two variants (counted under the first). */
  exposedToTwo?: number;
}

/** What a sink delivers: a campaign's summary, or a report a manager reads (scheduled reports send it). */
export type Payload = CampaignSummary | ReportModel;
