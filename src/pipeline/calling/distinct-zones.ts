import { wallClock } from "../../lib/time-zone.ts";

const HALF_DAY = 12 * 3_600_000;
/** Each zone's clock, as a small id: zones with the same id keep the same time. */
const clockOf = new Map<string, number>();
const clocks = new Map<string, number>();
const answers = new Map<string, string[]>();

/** A zone's clock over two years from this one's start, twice a day: equal for zones that keep one time. */
function clockId(zone: string): number {
  let id = clockOf.get(zone);
  if (id === undefined) {
    const start = Date.UTC(new Date().getUTCFullYear(), 0, 1);
    const parts: number[] = [];
    for (let t = start; t < start + 2 * 366 * 86_400_000; t += HALF_DAY) parts.push(wallClock(t, zone) - t);
    const signature = parts.join(",");
    id = clocks.get(signature) ?? clocks.size;
    clocks.set(signature, id);
    clockOf.set(zone, id);
  }
  return id;
}

/** Names kept for their clock when present: the zones people know (a label reads "America/Chicago", not "America/North_Dakota/New_Salem"). */
const PREFERRED = new Set([
  "America/New_York",
  "America/Chicago",
  "America/Denver",
  "America/Phoenix",
  "America/Los_Angeles",
  "America/Anchorage",
  "Pacific/Honolulu",
  "America/Puerto_Rico",
  "Europe/London",
]);

/**
 * One zone per distinct clock among `zones` (sorted; of each clock, a preferred name when there is
 * one, else the last name, which for London, Jersey, Guernsey and the Isle of Man is the
 * mainland's): calling hours are the same in zones that keep the same time, so their constraints are
 * one. Memoized per zone set.
 */
export function distinctTimeZones(zones: readonly string[]): string[] {
  const sorted = [...new Set(zones)].sort();
  const key = sorted.join(",");
  let answer = answers.get(key);
  if (!answer) {
    const byClock = new Map<number, string>();
    for (const zone of sorted) {
      const known = byClock.get(clockId(zone));
      if (!known || !PREFERRED.has(known)) byClock.set(clockId(zone), zone);
    }
    answer = [...byClock.values()].sort();
    answers.set(key, answer);
  }
  return answer;
}

/** The zones of `a` that keep the clock of some zone of `b` (one per clock). */
export function sameClocks(a: readonly string[], b: readonly string[]): string[] {
  const wanted = new Set(b.map(clockId));
  return distinctTimeZones(a.filter((zone) => wanted.has(clockId(zone))));
}
