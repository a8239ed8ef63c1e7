/**
 * A rate limit that moves: from `atSec` seconds after the schedule starts, `perSecond` requests per
 * second, until the next step. The first step is at 0; the last holds for good.
 */
export interface RateStep {
  atSec: number;
  perSecond: number;
}

export type RateSchedule = readonly RateStep[];

const entryError = (index: number, entry: string, why: string) =>
  new RangeError(`rate-limit schedule entry ${index + 1} "${entry}": ${why}`);

/**
 * Throws a RangeError naming the first bad entry (counted from 1, shown as `entries` spells it when
 * given); returns the schedule when it is good.
 */
export function checkRateSchedule(schedule: RateSchedule, entries?: readonly string[]): RateSchedule {
  if (schedule.length === 0) throw new RangeError("a rate-limit schedule needs at least one entry");
  schedule.forEach((step, i) => {
    const bad = (why: string) => entryError(i, entries?.[i] ?? `${step.atSec}:${step.perSecond}`, why);
    if (!Number.isFinite(step.atSec) || step.atSec < 0) throw bad("seconds must be a number >= 0");
    if (i === 0 && step.atSec !== 0) throw bad("the first entry must be at second 0");
    if (i > 0 && step.atSec <= schedule[i - 1]!.atSec) throw bad("seconds must increase from entry to entry");
    if (!Number.isFinite(step.perSecond) || step.perSecond <= 0) {
      throw bad("requests per second must be a number > 0");
    }
  });
  return schedule;
}

/** Reads `0:200,30:100,60:200` (seconds:requests per second, comma-separated). */
export function parseRateSchedule(text: string): RateStep[] {
  const entries = text.split(",").map((entry) => entry.trim());
  const steps = entries.map((entry, i) => {
    const parts = entry.split(":");
    if (parts.length !== 2) throw entryError(i, entry, "expected SECONDS:PER_SECOND, like 30:100");
    const [atSec, perSecond] = parts.map((part) => (part.trim() === "" ? Number.NaN : Number(part)));
    return { atSec: atSec!, perSecond: perSecond! };
  });
  return [...checkRateSchedule(steps, entries)];
}

/** The limit in force at `sec` (before 0: the first step's). */
export function limitAt(schedule: RateSchedule, sec: number): number {
  let limit = schedule[0]!.perSecond;
  for (const step of schedule) if (step.atSec <= sec) limit = step.perSecond;
  return limit;
}

/**
 * Requests the schedule allows from `fromMs` to `toMs` after its start: the integral of the limit.
 * In milliseconds, so that the bucket's small steps are exact differences of whole numbers.
 */
export function allowedBetweenMs(schedule: RateSchedule, fromMs: number, toMs: number): number {
  let total = 0;
  schedule.forEach((step, i) => {
    // The first step reaches back before 0, the last forward for good.
    const start = Math.max(fromMs, i === 0 ? -Infinity : step.atSec * 1000);
    const end = Math.min(toMs, (schedule[i + 1]?.atSec ?? Infinity) * 1000);
    if (end > start) total += ((end - start) * step.perSecond) / 1000;
  });
  return total;
}

/** Requests the schedule allows from `fromSec` to `toSec` (0 for an empty interval). */
export const allowedBetween = (schedule: RateSchedule, fromSec: number, toSec: number) =>
  allowedBetweenMs(schedule, fromSec * 1000, toSec * 1000);

/**
 * The time-averaged limit from `fromSec` to `toSec` (seconds since the schedule started): what a
 * client sending steadily can get. The bucket's one second of burst comes on top of it.
 */
export function averageLimit(schedule: RateSchedule, fromSec: number, toSec: number): number {
  if (!(toSec >= fromSec))
    throw new RangeError(`the interval must not end (${toSec}) before it starts (${fromSec})`);
  if (toSec === fromSec) return limitAt(schedule, fromSec);
  return allowedBetween(schedule, fromSec, toSec) / (toSec - fromSec);
}
