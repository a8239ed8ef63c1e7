import { wallClock } from "../../lib/time-zone.ts";

const HALF_DAY = 12 * 3_600_000;
const signatures = new Map<string, string>();

/** A zone's clock over the year from the first call, twice a day: equal for zones that keep one time. */
function signature(zone: string): string {
  let s = signatures.get(zone);
  if (s === undefined) {
    const start = Date.UTC(new Date().getUTCFullYear(), 0, 1);
    const parts: number[] = [];
    for (let t = start; t < start + 2 * 366 * 86_400_000; t += HALF_DAY) parts.push(wallClock(t, zone) - t);
    s = parts.join(",");
    signatures.set(zone, s);
  }
  return s;
}

/**
 * One zone per distinct clock among `zones` (sorted; the last name of each clock kept, which for
 * London, Jersey, Guernsey and the Isle of Man is the mainland's): calling hours are the same in
 * zones that keep the same time, so their constraints are one.
 */
export function distinctTimeZones(zones: readonly string[]): string[] {
  const byClock = new Map<string, string>();
  for (const zone of [...new Set(zones)].sort()) byClock.set(signature(zone), zone);
  return [...byClock.values()].sort();
}
