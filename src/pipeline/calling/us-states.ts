/**
 * US states and DC: code, name, and the IANA zones each spans (the first is where most live). Data
 * for reading a file's state column and for the zones of a state without a zone column; a table of
 * 51 rows is smaller than a geography dependency.
 */
const NY = "America/New_York";
const CHI = "America/Chicago";
const DEN = "America/Denver";
const LA = "America/Los_Angeles";

export const US_STATES: Readonly<Record<string, { name: string; zones: readonly string[] }>> = {
  AL: { name: "Alabama", zones: [CHI] },
  AK: { name: "Alaska", zones: ["America/Anchorage", "America/Adak"] },
  AZ: { name: "Arizona", zones: ["America/Phoenix", DEN] },
  AR: { name: "Arkansas", zones: [CHI] },
  CA: { name: "California", zones: [LA] },
  CO: { name: "Colorado", zones: [DEN] },
  CT: { name: "Connecticut", zones: [NY] },
  DE: { name: "Delaware", zones: [NY] },
  DC: { name: "District of Columbia", zones: [NY] },
  FL: { name: "Florida", zones: [NY, CHI] },
  GA: { name: "Georgia", zones: [NY] },
  HI: { name: "Hawaii", zones: ["Pacific/Honolulu"] },
  ID: { name: "Idaho", zones: ["America/Boise", LA] },
  IL: { name: "Illinois", zones: [CHI] },
  IN: { name: "Indiana", zones: ["America/Indiana/Indianapolis", CHI] },
  IA: { name: "Iowa", zones: [CHI] },
  KS: { name: "Kansas", zones: [CHI, DEN] },
  KY: { name: "Kentucky", zones: ["America/Kentucky/Louisville", CHI] },
  LA: { name: "Louisiana", zones: [CHI] },
  ME: { name: "Maine", zones: [NY] },
  MD: { name: "Maryland", zones: [NY] },
  MA: { name: "Massachusetts", zones: [NY] },
  MI: { name: "Michigan", zones: ["America/Detroit", "America/Menominee"] },
  MN: { name: "Minnesota", zones: [CHI] },
  MS: { name: "Mississippi", zones: [CHI] },
  MO: { name: "Missouri", zones: [CHI] },
  MT: { name: "Montana", zones: [DEN] },
  NE: { name: "Nebraska", zones: [CHI, DEN] },
  NV: { name: "Nevada", zones: [LA] },
  NH: { name: "New Hampshire", zones: [NY] },
  NJ: { name: "New Jersey", zones: [NY] },
  NM: { name: "New Mexico", zones: [DEN] },
  NY: { name: "New York", zones: [NY] },
  NC: { name: "North Carolina", zones: [NY] },
  ND: { name: "North Dakota", zones: [CHI, DEN] },
  OH: { name: "Ohio", zones: [NY] },
  OK: { name: "Oklahoma", zones: [CHI] },
  OR: { name: "Oregon", zones: [LA, "America/Boise"] },
  PA: { name: "Pennsylvania", zones: [NY] },
  RI: { name: "Rhode Island", zones: [NY] },
  SC: { name: "South Carolina", zones: [NY] },
  SD: { name: "South Dakota", zones: [CHI, DEN] },
  TN: { name: "Tennessee", zones: [CHI, NY] },
  TX: { name: "Texas", zones: [CHI, DEN] },
  UT: { name: "Utah", zones: [DEN] },
  VT: { name: "Vermont", zones: [NY] },
  VA: { name: "Virginia", zones: [NY] },
  WA: { name: "Washington", zones: [LA] },
  WV: { name: "West Virginia", zones: [NY] },
  WI: { name: "Wisconsin", zones: [CHI] },
  WY: { name: "Wyoming", zones: [DEN] },
};

/** Every zone of the 50 states and DC: a number valid in a whole plan (toll-free) is called in these. */
export const US_ZONES: ReadonlySet<string> = new Set(Object.values(US_STATES).flatMap((s) => s.zones));

const byName = new Map(
  Object.entries(US_STATES).map(([code, s]) => [s.name.toLowerCase().replace(/[^a-z]/g, ""), code]),
);

/**
 * A US state code from how files and the geocoder write it: "FL", "Florida", "Washington State",
 * "San Francisco, CA". Undefined when it names no state.
 */
export function usStateCode(text: string): string | undefined {
  const t = text.trim();
  const tail = /,\s*([A-Za-z]{2})$/.exec(t)?.[1];
  const code = (tail ?? t).toUpperCase();
  if (code.length === 2 && US_STATES[code]) return code;
  const name = t.toLowerCase().replace(/[^a-z]/g, "");
  return byName.get(name) ?? byName.get(name.replace(/state$/, ""));
}
