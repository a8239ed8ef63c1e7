import { type RegionRow, regionReader } from "./region-names.ts";

/**
 * US states, DC and the inhabited territories: code, name, the names files also write them by, and
 * every IANA zone each spans (49 CFR Part 71 draws the boundaries; the first zone is where most
 * live). Data for reading a file's state column and for the zones of a state when a number's own
 * data knows only the state; a table of 56 rows is smaller than a geography dependency.
 */
const NY = "America/New_York";
const CHI = "America/Chicago";
const DEN = "America/Denver";
const LA = "America/Los_Angeles";

interface StateRow extends RegionRow {
  territory?: true;
}

export const US_STATES: Readonly<Record<string, StateRow>> = {
  AL: { name: "Alabama", zones: [CHI], also: ["ala"] },
  AK: {
    name: "Alaska",
    zones: [
      "America/Anchorage",
      "America/Juneau",
      "America/Sitka",
      "America/Yakutat",
      "America/Nome",
      "America/Metlakatla",
      "America/Adak",
    ],
  },
  AZ: { name: "Arizona", zones: ["America/Phoenix", DEN], also: ["ariz"] },
  AR: { name: "Arkansas", zones: [CHI], also: ["ark"] },
  CA: { name: "California", zones: [LA], also: ["calif", "cal"] },
  CO: { name: "Colorado", zones: [DEN], also: ["colo"] },
  CT: { name: "Connecticut", zones: [NY], also: ["conn"] },
  DE: { name: "Delaware", zones: [NY], also: ["del"] },
  DC: { name: "District of Columbia", zones: [NY], also: ["washingtondc", "washdc"] },
  FL: { name: "Florida", zones: [NY, CHI], also: ["fla"] },
  GA: { name: "Georgia", zones: [NY] },
  HI: { name: "Hawaii", zones: ["Pacific/Honolulu"] },
  ID: { name: "Idaho", zones: ["America/Boise", LA], also: ["ida"] },
  IL: { name: "Illinois", zones: [CHI], also: ["ill"] },
  IN: {
    name: "Indiana",
    zones: [
      "America/Indiana/Indianapolis",
      CHI,
      "America/Indiana/Knox",
      "America/Indiana/Tell_City",
      "America/Indiana/Vincennes",
      "America/Indiana/Petersburg",
      "America/Indiana/Winamac",
      "America/Indiana/Marengo",
      "America/Indiana/Vevay",
    ],
    also: ["ind"],
  },
  IA: { name: "Iowa", zones: [CHI] },
  KS: { name: "Kansas", zones: [CHI, DEN], also: ["kan", "kans"] },
  KY: {
    name: "Kentucky",
    zones: ["America/Kentucky/Louisville", CHI, "America/Kentucky/Monticello"],
    also: ["ken", "kent"],
  },
  LA: { name: "Louisiana", zones: [CHI] },
  ME: { name: "Maine", zones: [NY] },
  MD: { name: "Maryland", zones: [NY] },
  MA: { name: "Massachusetts", zones: [NY], also: ["mass"] },
  MI: { name: "Michigan", zones: ["America/Detroit", "America/Menominee"], also: ["mich"] },
  MN: { name: "Minnesota", zones: [CHI], also: ["minn"] },
  MS: { name: "Mississippi", zones: [CHI], also: ["miss"] },
  MO: { name: "Missouri", zones: [CHI] },
  MT: { name: "Montana", zones: [DEN], also: ["mont"] },
  NE: { name: "Nebraska", zones: [CHI, DEN], also: ["neb", "nebr"] },
  NV: { name: "Nevada", zones: [LA, DEN], also: ["nev"] },
  NH: { name: "New Hampshire", zones: [NY] },
  NJ: { name: "New Jersey", zones: [NY] },
  NM: { name: "New Mexico", zones: [DEN], also: ["nmex"] },
  NY: { name: "New York", zones: [NY] },
  NC: { name: "North Carolina", zones: [NY] },
  ND: {
    name: "North Dakota",
    zones: [
      CHI,
      DEN,
      "America/North_Dakota/Center",
      "America/North_Dakota/New_Salem",
      "America/North_Dakota/Beulah",
    ],
    also: ["ndak"],
  },
  OH: { name: "Ohio", zones: [NY] },
  OK: { name: "Oklahoma", zones: [CHI], also: ["okla"] },
  OR: { name: "Oregon", zones: [LA, "America/Boise"], also: ["ore", "oreg"] },
  PA: { name: "Pennsylvania", zones: [NY], also: ["penn", "penna"] },
  RI: { name: "Rhode Island", zones: [NY] },
  SC: { name: "South Carolina", zones: [NY] },
  SD: { name: "South Dakota", zones: [CHI, DEN], also: ["sdak"] },
  TN: { name: "Tennessee", zones: [CHI, NY], also: ["tenn"] },
  TX: { name: "Texas", zones: [CHI, DEN], also: ["tex"] },
  UT: { name: "Utah", zones: [DEN] },
  VT: { name: "Vermont", zones: [NY] },
  VA: { name: "Virginia", zones: [NY] },
  WA: { name: "Washington", zones: [LA], also: ["wash", "washingtonstate"] },
  WV: { name: "West Virginia", zones: [NY], also: ["wva"] },
  WI: { name: "Wisconsin", zones: [CHI], also: ["wis", "wisc"] },
  WY: { name: "Wyoming", zones: [DEN], also: ["wyo"] },
  PR: { name: "Puerto Rico", zones: ["America/Puerto_Rico"], territory: true },
  VI: {
    name: "U.S. Virgin Islands",
    zones: ["America/St_Thomas"],
    also: ["usvi", "virginislands", "usvirginislands", "virginislandsus", "unitedstatesvirginislands"],
    territory: true,
  },
  GU: { name: "Guam", zones: ["Pacific/Guam"], territory: true },
  AS: { name: "American Samoa", zones: ["Pacific/Pago_Pago"], also: ["amsamoa"], territory: true },
  MP: {
    name: "Northern Mariana Islands",
    zones: ["Pacific/Saipan"],
    also: ["cnmi", "nmi", "commonwealthofthenorthernmarianaislands", "marianas", "saipan"],
    territory: true,
  },
};

/** ISO 3166 codes of the territories (libphonenumber gives their numbers these countries). */
export const US_TERRITORIES: ReadonlySet<string> = new Set(
  Object.entries(US_STATES)
    .filter(([, s]) => s.territory)
    .map(([code]) => code),
);

/** Every zone of the states, DC and the territories. */
export const US_ZONES: ReadonlySet<string> = new Set(Object.values(US_STATES).flatMap((s) => s.zones));

/** ", USA", " (US)", ", United States of America": a country written after the state. */
const COUNTRY_TAIL = /[\s,;(-]+(u\.?\s?s\.?\s?a?\.?|united\s+states(\s+of\s+america)?|america)\)?\s*$/i;

/**
 * A US state or territory code from how files and the geocoder write it: "FL", "Florida", "Fla.",
 * "FLA", "Florida, USA", "Washington State", "San Francisco, CA", "Guam". Undefined when it names
 * none (the caller falls back to the number's own state: an unreadable cell never drops it).
 */
export const usStateCode = regionReader(US_STATES, COUNTRY_TAIL);
