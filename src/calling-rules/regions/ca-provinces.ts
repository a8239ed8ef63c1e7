import { type RegionRow, regionReader } from "./region-names.ts";

/**
 * Canada's provinces and territories (ISO 3166-2:CA codes) and every IANA zone each spans, from the
 * comments of the tz database's zone.tab (2025b, read 2026-11-28): a province column's zones, and a
 * Canadian number's when its own data knows only the province. Quebec adds Atlantic time for the
 * Magdalen Islands, which keep it (zone.tab names no zone of theirs).
 */
const TORONTO = "America/Toronto";
const EDMONTON = "America/Edmonton";
const WINNIPEG = "America/Winnipeg";
const HALIFAX = "America/Halifax";
/** MST all year: Creston, Dawson Creek, Fort St John, Fort Nelson (BC) and Yukon. */
const BC_MST = ["America/Creston", "America/Dawson_Creek", "America/Fort_Nelson"];
const YUKON = ["America/Whitehorse", "America/Dawson"];

export const CA_PROVINCES: Readonly<Record<string, RegionRow>> = {
  AB: { name: "Alberta", zones: [EDMONTON], also: ["alta"] },
  BC: { name: "British Columbia", zones: ["America/Vancouver", EDMONTON, ...BC_MST] },
  MB: { name: "Manitoba", zones: [WINNIPEG], also: ["man"] },
  NB: { name: "New Brunswick", zones: ["America/Moncton"] },
  NL: {
    name: "Newfoundland and Labrador",
    zones: ["America/St_Johns", "America/Goose_Bay"],
    also: ["newfoundland", "nfld", "labrador"],
  },
  NS: { name: "Nova Scotia", zones: [HALIFAX, "America/Glace_Bay"] },
  NT: { name: "Northwest Territories", zones: [EDMONTON, "America/Inuvik"], also: ["nwt"] },
  NU: {
    name: "Nunavut",
    zones: [
      "America/Iqaluit",
      "America/Rankin_Inlet",
      "America/Resolute",
      "America/Cambridge_Bay",
      "America/Atikokan",
    ],
  },
  ON: { name: "Ontario", zones: [TORONTO, WINNIPEG, "America/Atikokan"], also: ["ont"] },
  PE: { name: "Prince Edward Island", zones: [HALIFAX], also: ["pei"] },
  QC: { name: "Quebec", zones: [TORONTO, "America/Blanc-Sablon", HALIFAX], also: ["que", "pq", "québec"] },
  SK: { name: "Saskatchewan", zones: ["America/Regina", "America/Swift_Current", EDMONTON], also: ["sask"] },
  YT: { name: "Yukon", zones: YUKON, also: ["yukonterritory"] },
};

/** ", Canada", " (CA)": a country written after the province. */
const COUNTRY_TAIL = /[\s,;(-]+(canada|can)\)?\s*$/i;

/** A province or territory code from how files and the geocoder write it: "BC", "Ontario", "Kenora, ON", "Que.". */
export const caProvinceCode = regionReader(CA_PROVINCES, COUNTRY_TAIL);

/**
 * Places Google's data puts in a clock they don't keep (read 2026-11-28 against zone.tab 2025b): it
 * gives Dawson Creek, Fort St. John, Fort Nelson and Creston Edmonton's Mountain time, which they
 * keep only in winter (MST all year), and Yukon Vancouver's Pacific time (MST all year since
 * 2020-11-01). Their zone is added to the data's, by the geocoder's place name ("Creston, BC").
 */
const MISPLACED: readonly [RegExp, readonly string[]][] = [
  [/^dawson creek, bc$/i, ["America/Dawson_Creek"]],
  [/^fort st\.? john, bc$/i, ["America/Dawson_Creek"]],
  [/^fort nelson, bc$/i, ["America/Fort_Nelson"]],
  [/^creston, bc$/i, ["America/Creston"]],
  [/, yt$/i, YUKON],
];

/** The zones a geocoded Canadian place keeps that the data leaves out. */
export function zonesTheDataMisses(place: string): readonly string[] {
  return MISPLACED.find(([re]) => re.test(place.trim()))?.[1] ?? [];
}
