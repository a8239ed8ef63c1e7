import { CA_PROVINCES, caProvinceCode } from "../../calling-rules/regions/ca-provinces.ts";
import { US_STATES, US_TERRITORIES, usStateCode } from "../../calling-rules/regions/us-states.ts";

/** A US state or territory, or a Canadian province or territory: its country, code and zones. */
export interface NanpRegion {
  /** ISO 3166: "US", a territory's own ("GU", "PR"), or "CA". */
  country: string;
  code: string;
  zones: readonly string[];
}

const us = (code: string): NanpRegion => ({
  country: US_TERRITORIES.has(code) ? code : "US",
  code,
  zones: US_STATES[code]!.zones,
});
const ca = (code: string): NanpRegion => ({ country: "CA", code, zones: CA_PROVINCES[code]!.zones });

/**
 * The region a text names ("FL", "Fla.", "Kenora, ON", "British Columbia"): in `country`'s table
 * when given (a number's place, as the geocoder writes it), else a US state or territory, then a
 * Canadian province (a file's cell). Undefined when it names none.
 */
export function nanpRegion(text: string, country?: string): NanpRegion | undefined {
  if (country === "CA") return lookup(caProvinceCode(text), ca);
  if (country !== undefined && country !== "US" && !US_TERRITORIES.has(country)) return undefined;
  return lookup(usStateCode(text), us) ?? (country ? undefined : lookup(caProvinceCode(text), ca));
}

const lookup = (code: string | undefined, of: (code: string) => NanpRegion) =>
  code === undefined ? undefined : of(code);
