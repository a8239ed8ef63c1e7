import { WEEKDAYS, type Weekday, wallClock } from "../../lib/time-zone.ts";
import { isHoliday } from "./holidays.ts";

/**
 * Calling hours as instants. A constraint is local hours (and days) in one IANA zone; a callee's
 * effective window is the instants where **every** constraint holds: the rules of their location,
 * the job's own window, in each zone they may be in. Pure and DST-correct: an instant is inside
 * when the zone's clock **at that instant** reads a time inside the hours, so an hour in the
 * spring-forward gap opens at the gap's end, and the repeated hour of a fall-back day counts only
 * where it falls inside (01:30-02:30 on 2026-11-01 in New York is 01:30-02:00 EDT and 01:30-02:30
 * EST, not the 01:00-01:30 EST between them).
 */
export interface HoursConstraint {
  timezone: string;
  /** HH:MM, 24 h. */
  from: string;
  to: string;
  days?: readonly Weekday[] | undefined;
  /** A holiday calendar (holidays.ts): closed all its days. */
  holidays?: string | undefined;
  /** Other windows in the same zone that allow calls too (Rhode Island's Saturdays). */
  or?: readonly Omit<HoursConstraint, "timezone" | "or">[] | undefined;
}

/** A half-open span of instants [start, end) in epoch ms. */
export type Interval = readonly [number, number];

const HOUR = 3_600_000;
const DAY = 86_400_000;
const minutesOf = (hhmm: string) => {
  const [h, m] = hhmm.split(":").map(Number);
  return h! * 60 + m!;
};

/** A span of instants over which a zone's offset from UTC stays the same. */
interface OffsetSpan {
  start: number;
  end: number;
  offset: number;
}

const offsetAt = (t: number, zone: string) => {
  const second = t - (((t % 1000) + 1000) % 1000);
  return wallClock(second, zone) - second;
};

const spansMemo = new Map<string, OffsetSpan[]>();

/** The zone's offsets over [from, until), split where they change (found to the second). Memoized. */
function offsetSpans(zone: string, from: number, until: number): OffsetSpan[] {
  const key = `${zone}|${from}|${until}`;
  const known = spansMemo.get(key);
  if (known) return known;
  const spans: OffsetSpan[] = [];
  let start = from - (from % 1000);
  let offset = offsetAt(start, zone);
  for (let t = start; t < until; ) {
    const next = Math.min(t + HOUR, until);
    if (offsetAt(next, zone) !== offset) {
      // The first second of the new offset, between t (old) and next (new).
      let low = t - (t % 1000);
      let high = next - (next % 1000) + (next % 1000 === 0 ? 0 : 1000);
      while (high - low > 1000) {
        const mid = low + Math.max(1000, Math.floor((high - low) / 2000) * 1000);
        if (offsetAt(mid, zone) === offset) low = mid;
        else high = mid;
      }
      spans.push({ start, end: high, offset });
      start = high;
      offset = offsetAt(high, zone);
    }
    t = next;
  }
  spans.push({ start, end: until, offset });
  if (spansMemo.size >= 512) spansMemo.clear();
  spansMemo.set(key, spans);
  return spans;
}

/** Where one constraint holds within [from, until): its window, or any of its `or` windows. */
export function constraintIntervals(c: HoursConstraint, from: number, until: number): Interval[] {
  const own = windowIntervals(c, from, until);
  if (!c.or?.length) return own;
  return union([own, ...c.or.map((w) => windowIntervals({ ...w, timezone: c.timezone }, from, until))]);
}

/** Sorted, disjoint lists as one, overlapping and touching spans merged. */
function union(lists: readonly Interval[][]): Interval[] {
  const all = lists.flat().sort((a, b) => a[0] - b[0]);
  const out: Interval[] = [];
  for (const [s, e] of all) {
    const last = out.at(-1);
    if (last && s <= last[1]) out[out.length - 1] = [last[0], Math.max(last[1], e)];
    else out.push([s, e]);
  }
  return out;
}

/** Where one window (hours, days, holidays in a zone) holds within [from, until). */
function windowIntervals(c: Omit<HoursConstraint, "or">, from: number, until: number): Interval[] {
  if (from >= until) return [];
  const opens = minutesOf(c.from) * 60_000;
  const closes = minutesOf(c.to) * 60_000;
  // Every instant whose wall clock can fall on a day of the range: offsets lie within ±15 h.
  const spans = offsetSpans(c.timezone, from - 16 * HOUR, until + 16 * HOUR);
  const out: Interval[] = [];
  const push = (start: number, end: number) => {
    const s = Math.max(start, from);
    const e = Math.min(end, until);
    if (s >= e) return;
    const last = out.at(-1);
    if (last && last[1] >= s) out[out.length - 1] = [last[0], Math.max(last[1], e)];
    else out.push([s, e]);
  };
  const first = wallClock(from, c.timezone);
  const last = wallClock(until, c.timezone);
  for (let day = first - (first % DAY) - DAY; day <= last + DAY; day += DAY) {
    if (c.days && !c.days.includes(WEEKDAYS[new Date(day).getUTCDay()]!)) continue;
    if (c.holidays && isHoliday(c.holidays, day)) continue;
    // The instants of each offset span whose wall time is in [day + opens, day + closes).
    for (const span of spans)
      push(Math.max(span.start, day + opens - span.offset), Math.min(span.end, day + closes - span.offset));
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

const LOOK_AHEAD = 15 * 86_400_000;

/** The span of the window open at `now`, or of the next one, within two weeks; undefined if none. */
export function openingAt(window: HoursConstraint, now: number): Interval | undefined {
  return constraintIntervals(window, now, now + LOOK_AHEAD)[0];
}

/**
 * When calls may start at or after `now`: `now` itself inside an open window, else the next
 * opening. Looks up to two weeks ahead; undefined if the window never opens (no days).
 */
export function nextOpening(window: HoursConstraint, now: number): number | undefined {
  return openingAt(window, now)?.[0];
}
