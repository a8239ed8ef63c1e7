import { parsePhoneNumberFromString } from "libphonenumber-js/max";
import type { LocationHints } from "../../ingest/location-columns.ts";
import { distinctTimeZones, sameClocks } from "./distinct-zones.ts";
import { ANYWHERE_REGIONS, numberPlace, US_COUNTRIES } from "./number-zones.ts";
import { US_STATES, usStateCode } from "./us-states.ts";
import { zonesFromCell } from "./zone-cells.ts";

/** Where a callee is, as far as the file and their number tell. */
export interface CalleeLocation {
  /** ISO 3166 country of the number. */
  country?: string;
  /** A US state or territory code ("FL"), else the region as the file or the geocoder names it. */
  region?: string;
  /** Every region they may be in, when there are several (a toll-free number: all of them). */
  regions?: string[];
  /** Zones they may be in (one per distinct clock); empty: none known (the job's fallback applies). */
  zones: string[];
  /** What the zones came from. */
  from: "zone column" | "region column" | "number" | "none";
}

/** One IANA zone from a zone cell: "America/New_York", "Eastern", "PST"; undefined if it may mean several or none. */
export function zoneFromCell(text: string): string | undefined {
  const zones = distinctTimeZones(zonesFromCell(text));
  return zones.length === 1 ? zones[0] : undefined;
}

/**
 * The callee's location: a zone column wins, then a state/region column, then the number's own
 * place in Google's libphonenumber data (number-zones.ts). A cell never widens the hours: one that
 * can't be read is left out (the number's own state stands), a zone cell that contradicts the state
 * cell gives the zones of both, and one with several meanings ("AST", "MST") is narrowed by the
 * state or the number when they agree with one of them, else kept whole.
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
  const where = locateFrom(country, us, byNumber, hints);
  const own = us ? byNumber.region : undefined;
  return { where, ...(own && own !== where.region ? { numberRegion: own } : {}) };
}

function locateFrom(
  country: string | undefined,
  us: boolean,
  byNumber: ReturnType<typeof numberPlace>,
  hints: LocationHints,
): CalleeLocation {
  const cellRegion = hints.region === undefined ? undefined : us ? usStateCode(hints.region) : hints.region;
  const region = cellRegion ?? byNumber.region;
  const base = {
    ...(country ? { country } : {}),
    ...(region ? { region } : {}),
    ...(byNumber.anywhere && !cellRegion ? { regions: ANYWHERE_REGIONS } : {}),
  };
  const state = us && cellRegion ? distinctTimeZones(US_STATES[cellRegion]!.zones) : [];
  const cell = hints.timezone === undefined ? [] : distinctTimeZones(zonesFromCell(hints.timezone));
  if (cell.length > 0) return { ...base, zones: narrowed(cell, state, byNumber.zones), from: "zone column" };
  if (state.length > 0) return { ...base, zones: state, from: "region column" };
  if (byNumber.zones.length === 0) return { ...base, zones: [], from: "none" };
  return { ...base, zones: byNumber.zones, from: "number" };
}

/** A zone cell's zones with the state's (both when they disagree) or, when it is ambiguous, the number's. */
function narrowed(cell: string[], state: string[], number: string[]): string[] {
  if (state.length > 0) {
    const both = sameClocks(cell, state);
    return both.length > 0 ? both : distinctTimeZones([...cell, ...state]);
  }
  if (cell.length === 1) return cell;
  const agreed = sameClocks(cell, number);
  return agreed.length > 0 ? agreed : cell;
}
