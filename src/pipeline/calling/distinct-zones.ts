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

/**
 * One zone per distinct clock among `zones` (sorted; the last name of each clock kept, which for
 * London, Jersey, Guernsey and the Isle of Man is the mainland's): calling hours are the same in
 * zones that keep the same time, so their constraints are one. Memoized per zone set.
 */
export function distinctTimeZones(zones: readonly string[]): string[] {
  const sorted = [...new Set(zones)].sort();
  const key = sorted.join(",");
  let answer = answers.get(key);
  if (!answer) {
    const byClock = new Map<number, string>();
    for (const zone of sorted) byClock.set(clockId(zone), zone);
    answer = [...byClock.values()].sort();
    answers.set(key, answer);
  }
  return answer;
}
