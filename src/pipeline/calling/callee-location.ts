import { parsePhoneNumberFromString } from "libphonenumber-js/max";
import type { LocationHints } from "../../ingest/location-columns.ts";
import { distinctTimeZones, sameClocks } from "./distinct-zones.ts";
import { nanpRegion } from "./nanp-regions.ts";
import { ANYWHERE_REGIONS, numberPlace, US_COUNTRIES } from "./number-zones.ts";
import { zonesFromCell } from "./zone-cells.ts";
import { everyReading } from "./zone-readings.ts";

/** Where a callee is, as far as the file and their number tell. */
export interface CalleeLocation {
  /** ISO 3166 country of the number. */
  country?: string;
  /** Every country they may be in, when a region cell names another than the number's ("FL" on a Canadian number). */
  countries?: string[];
  /** A US state or territory code ("FL") or a Canadian province's ("BC"), else the region as the file or the geocoder names it. */
  region?: string;
  /** Every region they may be in, when there are several (a toll-free number: all of them). */
  regions?: string[];
  /**
   * Zones they may be in (one per distinct clock): the number's, and the file's zone and region
   * cells'; empty: none known (the job's fallback applies).
   */
  zones: string[];
  /** The most specific source that gave zones (the number's are always among them). */
  from: "zone column" | "region column" | "number" | "none";
}

/** One IANA zone from a zone cell: "America/New_York", "Eastern", "PST"; undefined if it may mean several or none. */
export function zoneFromCell(text: string): string | undefined {
  const zones = distinctTimeZones(zonesFromCell(text));
  return zones.length === 1 ? zones[0] : undefined;
}

/** The zones of a number by its own data alone, as the runtime keeps them (jobs without calling rules). */
export function numberZones(e164: string): string[] {
  return numberPlace(parsePhoneNumberFromString(e164)).zones;
}

/**
 * The callee's location: they may be where their number is (Google's libphonenumber data:
 * number-zones.ts) or where the file's cells say, so every zone of the number, of the zone cell and
 * of the region cell's state or province is a candidate (a call must be legal in each), and each
 * reading of a zone whose clock changed lately (zone-readings.ts). A cell never widens the hours,
 * nor drops the number's: one that can't be read is left out, and a zone cell with several meanings
 * ("AST", "MST", "BST") is read as those the number or the region agree with, when some do, else as
 * all of them. A region cell names the campaign's region; the number's own US state is returned
 * apart when it differs (its rules apply too).
 */
export function locateCallee(e164: string, hints: LocationHints = {}): CalleeLocation {
  return locateWithNumber(e164, hints).where;
}

/**
 * The callee's location, and the US state or territory of the number's own area code when the
 * file places the callee elsewhere (its rules apply too: Florida and Oklahoma presume a call to
 * their area codes reaches someone there), from one reading of the number.
 */
export function locateWithNumber(
  e164: string,
  hints: LocationHints = {},
): { where: CalleeLocation; numberRegion?: string } {
  const phone = parsePhoneNumberFromString(e164);
  const country = phone?.country;
  const us = country !== undefined && US_COUNTRIES.has(country);
  const byNumber = numberPlace(phone);
  const where = locateFrom(country, phone?.countryCallingCode === "1", byNumber, hints);
  const own = us ? byNumber.region : undefined;
  return { where, ...(own && own !== where.region ? { numberRegion: own } : {}) };
}

function locateFrom(
  country: string | undefined,
  nanp: boolean,
  byNumber: ReturnType<typeof numberPlace>,
  hints: LocationHints,
): CalleeLocation {
  // A North American number's region cell is a state or province ("Kent" elsewhere is no Kentucky).
  const cell = hints.region === undefined || !nanp ? undefined : nanpRegion(hints.region);
  // Outside the US, an unread region cell is still the file's name for where they are.
  const cellRegion =
    cell?.code ??
    (hints.region !== undefined && !(country && US_COUNTRIES.has(country)) ? hints.region : undefined);
  const region = cellRegion ?? byNumber.region;
  const countries = cell && country && cell.country !== country ? { countries: [country, cell.country] } : {};
  const state = cell ? distinctTimeZones(cell.zones) : [];
  const zoneCell = hints.timezone === undefined ? [] : distinctTimeZones(zonesFromCell(hints.timezone));
  const meant = zoneCell.length > 1 ? agreed(zoneCell, [...state, ...byNumber.zones]) : zoneCell;
  const zones = everyReading([...byNumber.zones, ...state, ...meant]);
  const from =
    meant.length > 0
      ? "zone column"
      : state.length > 0
        ? "region column"
        : zones.length > 0
          ? "number"
          : "none";
  return {
    ...(country ? { country } : {}),
    ...countries,
    ...(region ? { region } : {}),
    ...(byNumber.anywhere ? { regions: ANYWHERE_REGIONS } : {}),
    zones,
    from,
  };
}

/** The meanings of an ambiguous zone cell that keep the clock of one of `others`; all of them if none do. */
function agreed(cell: string[], others: string[]): string[] {
  const both = sameClocks(cell, others);
  return both.length > 0 ? both : cell;
}
