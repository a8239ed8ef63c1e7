import { maskPhonesIn } from "../../lib/mask-phone.ts";
import { counted } from "../../lib/plural.ts";
import type { CampaignTotals } from "../model/campaign-totals.ts";
import type { CampaignInfo } from "../model/results.ts";
import { waitsAt } from "./campaign-list.ts";
import { type CallFact, type FileFact, PeriodFigures, rate } from "./figures.ts";
import { HourlyCounts } from "./hourly.ts";
import {
  type Change,
  type ReportCampaign,
  type ReportCampaignNotMade,
  type ReportModel,
  type ReportPeriod,
  TIMES_NOTE,
} from "./model.ts";
import { previousPeriod } from "./period.ts";
import { numbersOf } from "./report-numbers.ts";

export interface ReportOptions {
  job: string;
  period: ReportPeriod;
  /** Statuses that count as reached (`polling.statuses.reached`) and as opted out. */
  reached: readonly string[];
  optedOut: readonly string[];
  now: number;
  /** Where a campaign's results are read. */
  resultsOf: (campaignId: string) => string;
  /** Its page and CSV, where there is a page to link to. */
  linksOf?: ((campaignId: string) => { page: string; csv: string }) | undefined;
  /** The job's next scheduled report (epoch ms), when it has one. */
  nextReportAt?: number | undefined;
}

/** One campaign with the calls of it that ended in the report's two periods. */
export interface CampaignFacts {
  info: CampaignInfo;
  totals: CampaignTotals;
  /** The zone its callees' local hours are read in. */
  zone: string;
  calls: Iterable<CallFact>;
  /** Calls started after its window closed (campaign/stopping/stop-settle.ts). */
  ranPastWindow?: boolean;
}

const CAMPAIGNS_SHOWN_FIRST = (a: ReportCampaign, b: ReportCampaign) =>
  b.callsInPeriod - a.callsInPeriod || b.scheduledAt.localeCompare(a.scheduledAt) || a.id.localeCompare(b.id);

/**
 * Builds a report campaign by campaign and file by file, so a caller can stream thousands of
 * campaigns through it: what it keeps is the figures, a row per campaign and an hourly series.
 */
export class ReportBuilder {
  private readonly from: number;
  private readonly to: number;
  private readonly previousFrom: number;
  private readonly current: PeriodFigures;
  private readonly previous: PeriodFigures;
  private readonly hourly: HourlyCounts;
  private readonly rows: ReportCampaign[] = [];
  private readonly notMade: ReportCampaignNotMade[] = [];
  private nextStart: { name: string; at: number } | undefined;
  private readonly problems: ReportModel["problems"] = [];
  private readonly reached: Set<string>;

  constructor(private readonly o: ReportOptions) {
    this.from = Date.parse(o.period.from);
    this.to = Date.parse(o.period.to);
    this.previousFrom = this.from - (this.to - this.from);
    this.reached = new Set(o.reached);
    const optedOut = new Set(o.optedOut);
    this.current = new PeriodFigures(this.reached, optedOut);
    this.previous = new PeriodFigures(this.reached, optedOut);
    this.hourly = new HourlyCounts(this.from, this.to, o.period.timezone);
  }

  /** Whether a campaign can have calls in the report's periods (else it need not be read). */
  concerns(createdAt: number, endedAt: number): boolean {
    return createdAt < this.to && (endedAt === 0 || endedAt >= this.previousFrom);
  }

  addCampaign(c: CampaignFacts): void {
    let inPeriod = 0;
    for (const call of c.calls) {
      if (call.at >= this.from && call.at < this.to) {
        inPeriod += 1;
        const reached = this.current.addCall(call, c.info);
        this.hourly.add(call.at, c.zone, reached);
      } else if (call.at >= this.previousFrom && call.at < this.from) this.previous.addCall(call, c.info);
    }
    const reached = Object.entries(c.totals.byStatus).reduce(
      (n, [status, count]) => n + (this.reached.has(status) ? count : 0),
      0,
    );
    const start = Date.parse(c.info.scheduledAt);
    // Waiting for its start (its calling window), as `vcw campaigns` says: listed, so a campaign made
    // in the period is never missing from its report because it has not called yet.
    const waiting = waitsAt(c.info, this.o.now);
    if (waiting && !(this.nextStart && this.nextStart.at <= start))
      this.nextStart = { name: c.info.name, at: start };
    const live = c.info.state === "active" && !(start >= this.to);
    if (inPeriod > 0 || live || waiting || c.info.state === "stuck")
      this.rows.push({
        id: c.info.id,
        name: c.info.name,
        job: c.info.job,
        ...(c.info.zone ? { zone: c.info.zone } : {}),
        scheduledAt: c.info.scheduledAt,
        state: waiting ? "waiting" : c.info.state,
        attempt: c.info.attempt,
        contacts: c.totals.contacts || c.info.audience || 0,
        reached,
        reachRate: rate(reached, c.totals.contacts),
        meetings: c.totals.meetings,
        callsInPeriod: inPeriod,
        results: this.o.resultsOf(c.info.id),
        ...(this.o.linksOf ? { links: this.o.linksOf(c.info.id) } : {}),
        ...(c.ranPastWindow ? { ranPastWindow: true } : {}),
        ...(c.info.dialerNumber ? { callerNumber: c.info.dialerNumber } : {}),
      });
    if (c.ranPastWindow)
      this.problems.push({
        kind: "ran-past-window",
        message: `campaign ${c.info.name} (${c.info.id}) ran past its calling window: calls started after it closed (the service did not honour the contacts vcw took out)`,
      });
    if (c.info.state === "stuck")
      this.problems.push({
        kind: "stuck-campaign",
        message: `campaign ${c.info.name} (${c.info.id}) is stuck: its calls stopped changing, and it is no longer polled`,
      });
    for (const [status, n] of Object.entries(c.totals.unknown ?? {}))
      this.problems.push({
        kind: "unknown-status",
        message: `campaign ${c.info.name}: ${counted(n, "contact")} with status "${status}", in no list of statuses (jobs/service.yaml)`,
      });
  }

  addFile(f: FileFact): void {
    if (f.finishedAt >= this.from && f.finishedAt < this.to) {
      this.current.addFile(f);
      if (f.status === "rejected")
        this.problems.push({
          kind: "rejected-file",
          message: `file ${f.file} was rejected: ${f.reason ?? "see its summary"}`,
        });
    } else if (f.finishedAt >= this.previousFrom && f.finishedAt < this.from) this.previous.addFile(f);
  }

  /** A campaign asked for and never made: listed with its reason when it failed in the period. */
  addCampaignNotMade(c: ReportCampaignNotMade): void {
    const at = Date.parse(c.at);
    if (!(at >= this.from && at < this.to)) return;
    this.notMade.push(c);
  }

  addFailedDelivery(d: { sink: string; reason: string; at: number }): void {
    if (d.at >= this.from && d.at < this.to)
      this.problems.push({
        kind: "failed-delivery",
        message: `a delivery to sink ${d.sink} failed for good: ${d.reason}`,
      });
  }

  /** What comes next: the soonest waiting start, the next scheduled report. */
  private next(): Pick<ReportModel, "next"> {
    const start = this.nextStart;
    const report = this.o.nextReportAt;
    if (!start && report === undefined) return {};
    return {
      next: {
        ...(start ? { start: { name: maskPhonesIn(start.name), at: new Date(start.at).toISOString() } } : {}),
        ...(report !== undefined ? { report: new Date(report).toISOString() } : {}),
      },
    };
  }

  build(): ReportModel {
    const cur = this.current.finish();
    const prev = this.previous.finish();
    const change = (k: "contactsCalled" | "calls" | "reached" | "reachRate" | "optedOut" | "meetings") =>
      changeOf(cur.totals[k], prev.totals[k]);
    return {
      kind: "report",
      job: this.o.job,
      generatedAt: new Date(this.o.now).toISOString(),
      period: this.o.period,
      reachedStatuses: [...this.o.reached],
      timesNote: TIMES_NOTE,
      totals: cur.totals,
      files: cur.files,
      // People read every rendering of the model (page, JSON, e-mail, Slack): names carry file names.
      campaigns: this.rows.sort(CAMPAIGNS_SHOWN_FIRST).map((c) => ({ ...c, name: maskPhonesIn(c.name) })),
      ...(numbersOf(this.rows) ? { numbers: numbersOf(this.rows)! } : {}),
      callsByHour: this.hourly.byHour(),
      bucket: this.hourly.unit,
      reachByLocalHour: this.hourly.byLocalHour(),
      ...(this.notMade.length > 0 ? { campaignsNotMade: this.notMade.sort(NEWEST_FIRST).map(masked) } : {}),
      problems: [...this.problems, ...notMadeProblems(this.notMade)].map((p) => ({
        ...p,
        message: maskPhonesIn(p.message),
      })),
      previous: { period: previousPeriod(this.o.period), totals: prev.totals, files: prev.files },
      ...this.next(),
      change: {
        contactsCalled: change("contactsCalled"),
        calls: change("calls"),
        reached: change("reached"),
        reachRate: change("reachRate"),
        contactReachRate: changeOf(cur.totals.contactReachRate ?? 0, prev.totals.contactReachRate ?? 0),
        optedOut: change("optedOut"),
        meetings: change("meetings"),
      },
    };
  }
}

const NEWEST_FIRST = (a: ReportCampaignNotMade, b: ReportCampaignNotMade) => b.at.localeCompare(a.at);

/** Names and reasons carry file names, and a service's message may carry a number: masked. */
const masked = (c: ReportCampaignNotMade): ReportCampaignNotMade => ({
  ...c,
  name: maskPhonesIn(c.name),
  file: maskPhonesIn(c.file),
  reason: maskPhonesIn(c.reason),
});

/** One problem per reason: "3 campaigns not made, 8 contacts not called: no assistant is named ...". */
function notMadeProblems(notMade: readonly ReportCampaignNotMade[]): ReportModel["problems"] {
  const byReason = new Map<string, { campaigns: number; contacts: number }>();
  for (const c of notMade) {
    const key = `${c.outcome === "failed" ? "failed" : "refused"}: ${c.reason}`;
    const n = byReason.get(key) ?? { campaigns: 0, contacts: 0 };
    n.campaigns += 1;
    n.contacts += c.contacts ?? 0;
    byReason.set(key, n);
  }
  return [...byReason].map(([reason, n]) => ({
    kind: "campaign-not-made" as const,
    message: `${counted(n.campaigns, "campaign")} not made (${counted(n.contacts, "contact")} not called), ${reason}`,
  }));
}

export function changeOf(current: number, previous: number): Change {
  const delta = Math.round((current - previous) * 10_000) / 10_000;
  return { delta, ratio: previous === 0 ? null : Math.round((10_000 * delta) / previous) / 10_000 };
}
