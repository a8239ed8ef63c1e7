import { instantOf, WEEKDAYS, type Weekday, wallClock } from "../../lib/time-zone.ts";

/**
 * Calling hours as instants. A constraint is local hours (and days) in one IANA zone; a callee's
 * effective window is the instants where **every** constraint holds: the rules of their location,
 * the job's own window, in each zone they may be in. Pure and DST-correct (local times through
 * `lib/time-zone.ts`: a time in the spring-forward gap opens at the gap's end).
 */
export interface HoursConstraint {
  timezone: string;
  /** HH:MM, 24 h. */
  from: string;
  to: string;
  days?: readonly Weekday[] | undefined;
}

/** A half-open span of instants [start, end) in epoch ms. */
export type Interval = readonly [number, number];

const DAY = 86_400_000;
const minutesOf = (hhmm: string) => {
  const [h, m] = hhmm.split(":").map(Number);
  return h! * 60 + m!;
};

/** Where one constraint holds within [from, until). */
export function constraintIntervals(c: HoursConstraint, from: number, until: number): Interval[] {
  const out: Interval[] = [];
  const first = wallClock(from, c.timezone);
  const last = wallClock(until, c.timezone);
  for (let day = first - (first % DAY) - DAY; day <= last; day += DAY) {
    if (c.days && !c.days.includes(WEEKDAYS[new Date(day).getUTCDay()]!)) continue;
    const opens = Math.max(from, instantOf(day + minutesOf(c.from) * 60_000, c.timezone));
    const closes = Math.min(until, instantOf(day + minutesOf(c.to) * 60_000, c.timezone));
    if (opens < closes) out.push([opens, closes]);
  }
  return out;
}

/** The instants in both lists (each sorted and disjoint). */
export function intersect(a: readonly Interval[], b: readonly Interval[]): Interval[] {
  const out: Interval[] = [];
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    const start = Math.max(a[i]![0], b[j]![0]);
    const end = Math.min(a[i]![1], b[j]![1]);
    if (start < end) out.push([start, end]);
    if (a[i]![1] < b[j]![1]) i++;
    else j++;
  }
  return out;
}

/** Where every constraint holds within [from, until); all of it when there is none. */
export function openIntervals(cs: readonly HoursConstraint[], from: number, until: number): Interval[] {
  let open: Interval[] = [[from, until]];
  for (const c of cs) open = intersect(open, constraintIntervals(c, from, until));
  return open;
}
