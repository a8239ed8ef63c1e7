import { wallClock } from "../../lib/time-zone.ts";
import { locateCallee } from "../calling/callee-location.ts";

const HALF_DAY = 12 * 3_600_000;
/** Zone sets already compared: their one zone, or undefined when they keep different times. */
const equivalent = new Map<string, string | undefined>();

/**
 * One zone for zones that keep the same time over the next year (twice a day, so a DST change on
 * another date shows): a UK mobile number may be in London, Jersey, Guernsey or the Isle of Man,
 * and calling hours are the same in all four. Their name is one of them (the last in order, which
 * for these sets is the mainland's).
 */
export function sameTimeZone(zones: readonly string[], from = Date.now()): string | undefined {
  const key = [...zones].sort().join(",");
  if (equivalent.has(key)) return equivalent.get(key);
  const sorted = key.split(",");
  let same: string | undefined = sorted.at(-1);
  for (let t = from - (from % HALF_DAY); t < from + 366 * 86_400_000 && same; t += HALF_DAY) {
    const wall = wallClock(t, sorted[0]!);
    if (sorted.some((zone) => wallClock(t, zone) !== wall)) same = undefined;
  }
  equivalent.set(key, same);
  return same;
}

/**
 * The time zone of a number's owner for a job without calling rules whose window is in the callee's
 * zone: where the calling rules place the number (calling/callee-location.ts: Google's
 * libphonenumber data, split area codes and toll-free numbers read as several zones). Several
 * zones that keep the same time count as one; zones that keep different times, or none, give
 * `fallback`.
 */
export async function calleeZone(e164: string, fallback: string): Promise<string> {
  const zones = locateCallee(e164).zones;
  if (zones.length === 0) return fallback;
  if (zones.length === 1) return zones[0]!;
  return sameTimeZone(zones) ?? fallback;
}
