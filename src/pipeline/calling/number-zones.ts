import type { PhoneNumber } from "libphonenumber-js/max";
import { zonesTheDataMisses } from "../../calling-rules/regions/ca-provinces.ts";
import { US_STATES, US_TERRITORIES } from "../../calling-rules/regions/us-states.ts";
import { distinctTimeZones } from "./distinct-zones.ts";
import { nanpRegion } from "./nanp-regions.ts";
import { geocodeEntryOf, nanpAreaRanges, timeZoneEntryOf } from "./phone-geo-data.ts";

/** Where a number's own data places it. */
export interface NumberPlace {
  /** Zones it may be in (one per distinct clock); empty: none known. */
  zones: string[];
  /** Its US state or territory code, or Canadian province code, else the geocoder's place name. */
  region?: string;
  /** In no place of its own (toll-free, non-geographic): anywhere the US rules reach. */
  anywhere: boolean;
}

/** Countries the `us` rules cover: the states and DC (US), and the territories. */
export const US_COUNTRIES: ReadonlySet<string> = new Set(["US", ...US_TERRITORIES]);

/** Toll-free and other whole-plan numbers: the states, DC and the territories of the Atlantic zone. */
const ANYWHERE_LEFT_OUT = new Set(["GU", "MP", "AS"]);
const ANYWHERE_ZONES = distinctTimeZones(
  Object.entries(US_STATES)
    .filter(([code]) => !ANYWHERE_LEFT_OUT.has(code))
    .flatMap(([, s]) => s.zones),
);
/** Every state, DC and territory code: the regions a toll-free number may be in. */
export const ANYWHERE_REGIONS = Object.keys(US_STATES).filter((code) => !ANYWHERE_LEFT_OUT.has(code));

/**
 * Where a number is by Google's libphonenumber data. Outside the North American plan, its range's
 * zones and place. In it (the US and its territories, Canada, the Caribbean), the data's zones
 * where it knows the number's exchange or place ("Tallahassee, FL"), and a Canadian place's own
 * clock when the data gets it wrong (ca-provinces.ts); where it knows only the state or province
 * ("Florida": an exchange it has no place for), every zone any range of that area code is in (the
 * area code's entry is its majority's zone: 850's is Eastern, though Pensacola's exchanges are
 * Central; 250's Pacific, though Cranbrook's are Mountain), and the state's or province's zones too
 * when the data knows no place in the area code at all (a new overlay such as 448 over 850, or 236
 * over 604). A US number of the whole plan (toll-free) may be anywhere: every clock of the states,
 * DC, Puerto Rico and the Virgin Islands.
 */
export function numberPlace(phone: PhoneNumber | undefined): NumberPlace {
  const country = phone?.country;
  const geocode = geocodeEntryOf(phone);
  const place = geocode?.value;
  const entry = timeZoneEntryOf(phone);
  if (!phone || !country || phone.countryCallingCode !== "1") {
    const zones = distinctTimeZones(entry?.zones ?? []);
    return { zones, ...(place ? { region: place } : {}), anywhere: false };
  }
  const ruled = US_COUNTRIES.has(country) || country === "CA";
  const named = US_TERRITORIES.has(country)
    ? nanpRegion(country, country)
    : place
      ? nanpRegion(place, country)
      : undefined;
  const region = named?.code ?? (ruled ? undefined : place);
  if (!entry || entry.prefix === "1")
    return US_COUNTRIES.has(country)
      ? { zones: ANYWHERE_ZONES, anywhere: true }
      : { zones: [], ...(region ? { region } : {}), anywhere: false };
  const withRegion = (zones: readonly string[]) => ({
    zones: distinctTimeZones(zones),
    ...(region ? { region } : {}),
    anywhere: false,
  });
  const missed = country === "CA" && place ? zonesTheDataMisses(place) : [];
  // The data names the exchange, or the place of the number (its zone follows the place's).
  if (entry.prefix.length >= 5 || (geocode?.prefix.length ?? 0) > 3)
    return withRegion([...entry.zones, ...missed]);
  const area = nanpAreaRanges(String(phone.nationalNumber).slice(0, 3));
  const zones = [...entry.zones, ...area.zones, ...missed];
  if (area.places <= 1 && named) zones.push(...named.zones);
  return withRegion(zones);
}
