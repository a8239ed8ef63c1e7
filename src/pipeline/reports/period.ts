import { CronExpressionParser } from "cron-parser";
import type { JobDefinition, REPORT_PERIODS } from "../../config/job-definition.ts";
import { zoneOf } from "../../config/job-zone.ts";
import { instantOf, wallClock } from "../../lib/time-zone.ts";
import { zonedTime } from "../../lib/zoned-time.ts";
import type { ReportPeriod } from "./model.ts";
import { durationWords } from "./words.ts";

export type PeriodKind = (typeof REPORT_PERIODS)[number];

const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** `90m`, `24h`, `7d`, `2w` in milliseconds; undefined for anything else. */
export function parseDuration(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)\s*([mhdw])$/.exec(text.trim());
  if (!m) return undefined;
  const ms = Number(m[1]) * UNIT_MS[m[2]!]!;
  return ms > 0 ? ms : undefined;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The longest period a report covers: a year and a day (its figures are compared with the period
 * before, so it reads two). Campaigns are kept 30 days: a longer range would add no call, only work.
 */
export const MAX_REPORT_DAYS = 366;
const MAX_REPORT_MS = MAX_REPORT_DAYS * UNIT_MS.d!;
const days = (ms: number) => (ms / UNIT_MS.d! >= 1e6 ? "over a million" : String(Math.ceil(ms / UNIT_MS.d!)));

/** Local wall clock moved by whole days or months, then back to an instant (DST-safe). */
function shiftWall(instant: number, zone: string, by: { days?: number; months?: number }): number {
  const wall = new Date(wallClock(instant, zone));
  if (by.days) wall.setUTCDate(wall.getUTCDate() + by.days);
  if (by.months) wall.setUTCMonth(wall.getUTCMonth() + by.months);
  return instantOf(wall.getTime(), zone);
}

/**
 * The period a report made at `at` covers: the day, week or calendar month (in `zone`) that ends
 * at `at`, or everything since the last report (since-last; a first report covers one day). A
 * report never covers what the last one did: its period starts at `lastAt` at the earliest (a
 * cron that ticks more often than its period reports the time since its last tick), and never
 * further back than a report may reach.
 */
export function scheduledPeriod(kind: PeriodKind, at: number, zone: string, lastAt = 0): ReportPeriod {
  const natural =
    kind === "day"
      ? shiftWall(at, zone, { days: -1 })
      : kind === "week"
        ? shiftWall(at, zone, { days: -7 })
        : kind === "month"
          ? shiftWall(at, zone, { months: -1 })
          : lastAt > 0 && lastAt < at
            ? lastAt
            : shiftWall(at, zone, { days: -1 });
  const after = lastAt > 0 && lastAt < at ? lastAt : 0;
  const from = Math.max(natural, after, at - MAX_REPORT_MS);
  return { from: iso(from), to: iso(at), timezone: zone, label: kind };
}

/** The period of equal length just before `p`. */
export function previousPeriod(p: ReportPeriod): ReportPeriod {
  const from = Date.parse(p.from);
  const length = Date.parse(p.to) - from;
  return { from: iso(from - length), to: p.from, timezone: p.timezone, label: `previous ${p.label}` };
}

/** A period from the command line: `since` before `now`, or `from`..`to`. */
export function askedPeriod(
  o: { since?: string; from?: string; to?: string },
  now: number,
  zone: string,
): ReportPeriod | { error: string } {
  if (o.since !== undefined && (o.from !== undefined || o.to !== undefined))
    return { error: "give --since or --from/--to, not both" };
  if (o.from !== undefined || o.to !== undefined) {
    const from = Date.parse(o.from ?? "");
    const to = o.to === undefined ? now : Date.parse(o.to);
    if (Number.isNaN(from)) return { error: `--from ${o.from ?? "(missing)"} is not an ISO date-time` };
    if (Number.isNaN(to)) return { error: `--to ${o.to} is not an ISO date-time` };
    if (from >= to) return { error: "--from must be before --to" };
    if (to - from > MAX_REPORT_MS)
      return {
        error: `--from ${o.from} to ${o.to ?? "now"} spans ${days(to - from)} days: a report covers at most ${MAX_REPORT_DAYS}`,
      };
    return {
      from: iso(from),
      to: iso(to),
      timezone: zone,
      label: `${zonedTime(from, zone)} to ${zonedTime(to, zone)}`,
    };
  }
  const since = o.since ?? "24h";
  const ms = parseDuration(since);
  if (ms === undefined) return { error: `--since ${since} is not a duration such as 90m, 24h, 7d or 2w` };
  if (ms > MAX_REPORT_MS)
    return { error: `--since ${since} spans ${days(ms)} days: a report covers at most ${MAX_REPORT_DAYS}` };
  return { from: iso(now - ms), to: iso(now), timezone: zone, label: `last ${durationWords(since)}` };
}

/**
 * The job's next scheduled report after `after` (epoch ms), and the zone it is made in: the soonest
 * tick of its `reports[]` crons, each in its zone (`zoneOf`, the scheduler's); none without reports.
 */
export function nextReportAt(def: JobDefinition, after: number): { at: number; zone: string } | undefined {
  let soonest: { at: number; zone: string } | undefined;
  for (const entry of def.reports) {
    const zone = zoneOf(def, entry.timezone);
    const at = CronExpressionParser.parse(entry.cron, { currentDate: new Date(after), tz: zone })
      .next()
      .getTime();
    if (soonest === undefined || at < soonest.at) soonest = { at, zone };
  }
  return soonest;
}
