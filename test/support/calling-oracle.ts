import { DateTime } from "luxon";
import type { LocationHints } from "../../src/ingest/location-columns.ts";
import type { HoursConstraint } from "../../src/pipeline/calling/calling-hours.ts";
import { plannedStart } from "../../src/pipeline/calling/planned-start.ts";

/**
 * The calling-hours oracle (issue 31, widened by issue 43), written apart from the code under test.
 * Where each number really is comes from hand-made tables (area codes and exchanges with the places
 * they serve, and the zones 49 CFR Part 71 and the tz database's zone.tab put those places in), what
 * a file's cells mean from the oracle's own reading, and what the law allows there from its own
 * reading of the rules (federal hours for the states and the territories; Florida, Oklahoma,
 * Washington, Utah, Rhode Island, Louisiana, Mississippi). Times come from luxon. A callee may be
 * where their number is or where any cell says: a call must be legal in every one of those zones.
 */

/**
 * Where a number really is: the zones it may be in and the state(s) whose rules govern it there
 * (a toll-free number: any state, each in its own zones).
 */
export interface Truth {
  phone: string;
  place: string;
  zones: string[];
  states: string[];
  anywhere?: true;
  /** In no place the US rules reach (a Canadian or Caribbean number, no US state cell). */
  outsideUs?: true;
  cells?: LocationHints;
}

export const NY = "America/New_York";
export const CHI = "America/Chicago";
export const DEN = "America/Denver";
export const PHX = "America/Phoenix";
export const LA = "America/Los_Angeles";
export const AK = "America/Anchorage";
export const ADAK = "America/Adak";
export const HI = "Pacific/Honolulu";
export const PR = "America/Puerto_Rico";
/** Where a toll-free number may ring: the states, DC, Puerto Rico and the Virgin Islands (docs/spec-gaps.md). */
const ANYWHERE = [NY, CHI, DEN, PHX, LA, AK, ADAK, HI, PR];

export const TABLE: Truth[] = [
  { phone: "+19073434311", place: "Anchorage AK (907-343)", zones: [AK], states: ["AK"] },
  { phone: "+19075864000", place: "Juneau AK (907-586)", zones: ["America/Juneau"], states: ["AK"] },
  { phone: "+19075920000", place: "Adak AK (907-592), Aleutian time", zones: [ADAK], states: ["AK"] },
  { phone: "+18124240000", place: "Evansville IN (812-424), Central", zones: [CHI], states: ["IN"] },
  {
    phone: "+18125550100",
    place: "an 812 exchange the data places only in Indiana",
    zones: [CHI, NY],
    states: ["IN"],
  },
  { phone: "+12704430000", place: "Paducah KY (270-443), Central", zones: [CHI], states: ["KY"] },
  { phone: "+12707810000", place: "Bowling Green KY (270-781), Central", zones: [CHI], states: ["KY"] },
  { phone: "+12707650000", place: "Elizabethtown KY (270-765), Eastern", zones: [NY], states: ["KY"] },
  {
    phone: "+12705550100",
    place: "a 270 exchange the data places only in Kentucky",
    zones: [CHI, NY],
    states: ["KY"],
  },
  { phone: "+18504320000", place: "Pensacola FL (850-432), Central", zones: [CHI], states: ["FL"] },
  { phone: "+18507630000", place: "Panama City FL (850-763), Central", zones: [CHI], states: ["FL"] },
  { phone: "+18502220000", place: "Tallahassee FL (850-222), Eastern", zones: [NY], states: ["FL"] },
  { phone: "+14485550100", place: "448, the overlay of 850", zones: [CHI, NY], states: ["FL"] },
  { phone: "+13055550101", place: "Miami FL (305)", zones: [NY], states: ["FL"] },
  { phone: "+16053420000", place: "Rapid City SD (605-342), Mountain", zones: [DEN], states: ["SD"] },
  { phone: "+16053360000", place: "Sioux Falls SD (605-336), Central", zones: [CHI], states: ["SD"] },
  { phone: "+19155320000", place: "El Paso TX (915-532), Mountain", zones: [DEN], states: ["TX"] },
  { phone: "+12198810000", place: "Gary IN (219-881), Central", zones: [CHI], states: ["IN"] },
  { phone: "+19068630000", place: "Menominee MI (906-863), Central", zones: [CHI], states: ["MI"] },
  { phone: "+12083430000", place: "Boise ID (208-343), Mountain", zones: ["America/Boise"], states: ["ID"] },
  { phone: "+12086640000", place: "Coeur d'Alene ID (208-664), Pacific", zones: [LA], states: ["ID"] },
  {
    phone: "+15418890000",
    place: "Ontario OR (541-889), Mountain",
    zones: ["America/Boise"],
    states: ["OR"],
  },
  {
    phone: "+19288710000",
    place: "Window Rock AZ (928-871), Navajo Nation: DST",
    zones: [DEN],
    states: ["AZ"],
  },
  { phone: "+19286450000", place: "Page AZ (928-645): no DST", zones: [PHX], states: ["AZ"] },
  { phone: "+18085550100", place: "Honolulu HI (808)", zones: [HI], states: ["HI"] },
  { phone: "+19185550110", place: "Tulsa OK (918)", zones: [CHI], states: ["OK"] },
  { phone: "+12065550100", place: "Seattle WA (206)", zones: [LA], states: ["WA"] },
  { phone: "+18015550120", place: "Salt Lake City UT (801)", zones: [DEN], states: ["UT"] },
  { phone: "+14015550121", place: "Providence RI (401)", zones: [NY], states: ["RI"] },
  { phone: "+15045550122", place: "New Orleans LA (504)", zones: [CHI], states: ["LA"] },
  { phone: "+16015550123", place: "Jackson MS (601)", zones: [CHI], states: ["MS"] },
  { phone: "+17877220000", place: "San Juan PR (787-722)", zones: [PR], states: ["PR"] },
  { phone: "+19397220000", place: "Puerto Rico (939)", zones: [PR], states: ["PR"] },
  { phone: "+16714770000", place: "Hagåtña GU (671-477)", zones: ["Pacific/Guam"], states: ["GU"] },
  {
    phone: "+13407740000",
    place: "Charlotte Amalie VI (340-774)",
    zones: ["America/St_Thomas"],
    states: ["VI"],
  },
  { phone: "+16846330000", place: "Pago Pago AS (684-633)", zones: ["Pacific/Pago_Pago"], states: ["AS"] },
  { phone: "+16702340000", place: "Saipan MP (670-234)", zones: ["Pacific/Saipan"], states: ["MP"] },
  { phone: "+18005550106", place: "toll-free 800", zones: ANYWHERE, states: [], anywhere: true },
  { phone: "+18885550107", place: "toll-free 888", zones: ANYWHERE, states: [], anywhere: true },
  { phone: "+18775550108", place: "toll-free 877", zones: ANYWHERE, states: [], anywhere: true },
  // Cells: the file places the callee; an unreadable cell leaves the number's own place.
  {
    phone: "+12125550107",
    place: "NY number, State 'Fla.'",
    zones: [NY, CHI],
    states: ["FL", "NY"],
    cells: { region: "Fla." },
  },
  {
    phone: "+12125550108",
    place: "NY number, State 'Guam'",
    zones: ["Pacific/Guam", NY],
    states: ["GU", "NY"],
    cells: { region: "Guam" },
  },
  {
    phone: "+13055550109",
    place: "FL number, State 'Dade' (unreadable)",
    zones: [NY],
    states: ["FL"],
    cells: { region: "Dade" },
  },
  {
    phone: "+16025550110",
    place: "AZ number, Time Zone 'MST', State AZ",
    zones: [PHX, DEN],
    states: ["AZ"],
    cells: { region: "AZ", timezone: "MST" },
  },
  {
    phone: "+14055550111",
    place: "OK number, State 'Okla.', Time Zone 'CST'",
    zones: [CHI],
    states: ["OK"],
    cells: { region: "Okla.", timezone: "CST" },
  },
  {
    phone: "+14155550112",
    place: "CA number, State 'Wash.'",
    zones: [LA],
    states: ["WA", "CA"],
    cells: { region: "Wash." },
  },
];

/**
 * The oracle's reading of the law, written apart from the code: whether a call at a local time is
 * allowed in a state (the federal hours everywhere the TCPA reaches), with each state's holidays
 * typed out by date for 2026 and 2027 (its statute's list, weekend dates moved as it says).
 */
const HOLIDAYS: Record<string, string[]> = {
  federal: [
    ..."2026-01-01 2026-01-19 2026-02-16 2026-05-25 2026-06-19 2026-07-03 2026-07-04 2026-09-07 2026-10-12 2026-11-11 2026-11-26 2026-12-25".split(
      " ",
    ),
    ..."2027-01-01 2027-01-18 2027-02-15 2027-05-31 2027-06-18 2027-06-19 2027-07-04 2027-07-05 2027-09-06 2027-10-11 2027-11-11 2027-11-25 2027-12-24 2027-12-25 2027-12-31".split(
      " ",
    ),
  ],
  RI: [..."2026-05-04 2026-07-06 2026-08-10 2026-11-03 2027-05-04 2027-08-09 2027-12-27".split(" ")],
  UT: [
    ..."2026-01-01 2026-01-19 2026-02-16 2026-04-03 2026-05-25 2026-06-15 2026-06-19 2026-07-03 2026-07-04 2026-07-24 2026-09-07 2026-10-12 2026-11-11 2026-11-26 2026-12-25".split(
      " ",
    ),
    ..."2027-01-01 2027-01-18 2027-02-15 2027-03-26 2027-05-31 2027-06-19 2027-06-21 2027-07-04 2027-07-05 2027-07-23 2027-07-24 2027-09-06 2027-10-11 2027-11-11 2027-11-25 2027-12-24 2027-12-25 2027-12-31".split(
      " ",
    ),
  ],
  LA: [
    ..."2026-01-01 2026-01-08 2026-01-19 2026-02-16 2026-02-17 2026-04-03 2026-05-25 2026-07-04 2026-08-30 2026-09-07 2026-10-12 2026-11-01 2026-11-11 2026-11-26 2026-12-25".split(
      " ",
    ),
    ..."2027-01-01 2027-01-08 2027-01-18 2027-02-09 2027-02-15 2027-03-26 2027-05-31 2027-07-04 2027-08-30 2027-09-06 2027-10-11 2027-11-01 2027-11-11 2027-11-25 2027-12-25".split(
      " ",
    ),
  ],
};

const between = (hhmm: string, from: string, to: string) => hhmm >= from && hhmm < to;

/** Whether the law allows a call at `local` (a time in the zone the callee is in) in `state`. */
function stateAllows(state: string, local: DateTime): boolean {
  const hhmm = local.toFormat("HH:mm");
  const date = local.toISODate()!;
  const weekday = local.weekday; // 1 Monday .. 7 Sunday
  if (!between(hhmm, "08:00", "21:00")) return false; // federal
  switch (state) {
    case "FL":
    case "WA":
      return between(hhmm, "08:00", "20:00");
    case "OK":
      return between(hhmm, "09:00", "20:00");
    case "UT":
      return weekday !== 7 && !HOLIDAYS.UT!.includes(date);
    case "RI":
      if (weekday === 6) return between(hhmm, "10:00", "17:00");
      return (
        weekday <= 5 &&
        !HOLIDAYS.RI!.includes(date) &&
        !HOLIDAYS.federal!.includes(date) &&
        between(hhmm, "09:00", "18:00")
      );
    case "LA":
      return weekday <= 5 && !HOLIDAYS.LA!.includes(date) && between(hhmm, "08:00", "20:00");
    case "MS": {
      const standard = local.setZone("UTC-6").toFormat("HH:mm");
      return weekday !== 7 && between(hhmm, "08:00", "20:00") && between(standard, "08:00", "20:00");
    }
    default:
      return true;
  }
}

/** The zones the oracle knows the states with rules to be in (49 CFR Part 71): where a toll-free number may be. */
const RULED_STATES: Record<string, string[]> = {
  FL: [NY, CHI],
  OK: [CHI],
  WA: [LA],
  UT: [DEN],
  RI: [NY],
  LA: [CHI],
  MS: [CHI],
};

export function allowedAt(
  t: number,
  truth: Truth,
  extra: readonly (readonly [string, string])[] = [],
): string | undefined {
  const places: [string, string[]][] = truth.zones.map((zone) => [zone, truth.states]);
  if (truth.anywhere)
    for (const [state, zones] of Object.entries(RULED_STATES))
      for (const z of zones) places.push([z, [state]]);
  for (const [zone, states] of places) {
    const local = DateTime.fromMillis(t, { zone });
    const hhmm = local.toFormat("HH:mm");
    for (const state of [...(truth.outsideUs ? [] : ["federal"]), ...states])
      if (!stateAllows(state, local))
        return `${local.toFormat("ccc yyyy-MM-dd HH:mm")} in ${zone} (${state})`;
    for (const [from, to] of extra) if (!between(hhmm, from, to)) return `${hhmm} in ${zone} (${from}-${to})`;
  }
  return undefined;
}

/** Every 15 minutes of [start, end), and its last minute. */
export function* minutes(start: number, end: number): Generator<number> {
  for (let t = start; t < end; t += 15 * 60_000) yield t;
  if (end > start) yield end - 60_000;
}

const VAN = "America/Vancouver";
const EDM = "America/Edmonton";
const TOR = "America/Toronto";
const WPG = "America/Winnipeg";
/** MST all year (zone.tab: "MST - BC (Dawson Cr, Ft St John)"). */
const BC_MST = "America/Dawson_Creek";
/**
 * British Columbia keeps -07 all year since its 2026 law, Alberta -06 (tz 2026b, 2026c); a runtime
 * with older zone data says PST/PDT and MST/MDT: a call there must be legal by either clock, each
 * kept by a zone no release changed.
 */
const BC = [VAN, LA, "Etc/GMT+7"];
const AB = [EDM, DEN, "Etc/GMT+6"];

/**
 * Canadian and other North American numbers: where they really are, by the place each exchange
 * serves and zone.tab's comments (2025b). The US rules reach none of them.
 */
export const NANP_TABLE: Truth[] = [
  ["+16046830000", "Vancouver BC (604-683)", BC],
  ["+16045550100", "a 604 exchange placed only in BC: the Lower Mainland", BC],
  ["+14032620000", "Calgary AB (403-262)", AB],
  ["+14163920000", "Toronto ON (416-392)", [TOR]],
  ["+13065250000", "Regina SK (306-525): CST all year", ["America/Regina"]],
  ["+19024210000", "Halifax NS (902-421)", ["America/Halifax"]],
  ["+17097220000", "St. John's NL (709-722)", ["America/St_Johns"]],
  ["+18676670000", "Whitehorse YT (867-667): MST all year since 2020", ["America/Whitehorse"]],
  ["+18679790000", "Iqaluit NU (867-979)", ["America/Iqaluit"]],
  [
    "+18675550100",
    "an 867 exchange placed only in the territories",
    [
      "America/Whitehorse",
      ...AB,
      "America/Inuvik",
      "America/Iqaluit",
      "America/Rankin_Inlet",
      "America/Cambridge_Bay",
      "America/Atikokan",
    ],
  ],
  ["+18074680000", "Kenora ON (807-468), Central", [WPG]],
  ["+12504260000", "Cranbrook BC (250-426), Mountain as Alberta keeps it", AB],
  ["+12507820000", "Dawson Creek BC (250-782): MST all year", [BC_MST]],
  ["+12504280000", "Creston BC (250-428): MST all year", ["America/Creston"]],
  ["+12505550100", "a 250 exchange placed only in BC", [...BC, ...AB, BC_MST]],
  ["+12365550100", "236, an overlay of 604 and 250", [...BC, ...AB, BC_MST]],
  ["+15065550100", "New Brunswick (506)", ["America/Moncton"]],
  ["+18765550100", "Jamaica (876)", ["America/Jamaica"]],
  ["+18092210000", "Dominican Republic (809-221)", ["America/Santo_Domingo"]],
  ["+12423220000", "Nassau, Bahamas (242-322)", ["America/Nassau"]],
  ["+14412920000", "Bermuda (441-292)", ["Atlantic/Bermuda"]],
].map(([phone, place, zones]) => ({
  phone: phone as string,
  place: place as string,
  zones: zones as string[],
  states: [],
  outsideUs: true,
}));

/** What a file's zone cell means, by the oracle's reading: cells of one clock only. */
export const ZONE_CELLS: Readonly<Record<string, readonly string[]>> = {
  "Pacific Time": [LA],
  PT: [LA],
  Eastern: [NY],
  EST: [NY],
  CT: [CHI],
  "Central Standard Time": [CHI],
  "Mountain Daylight Time": [DEN],
  "America/Denver": [DEN],
  Arizona: [PHX],
  Alaska: [AK],
  "America/Vancouver": BC,
  "America/Halifax": ["America/Halifax"],
  "America/Regina": ["America/Regina"],
};

/** What a file's state or province cell means: the state whose rules apply (US), and its zones. */
export const REGION_CELLS: Readonly<
  Record<string, { zones: readonly string[]; state?: string; us: boolean }>
> = {
  FL: { zones: [NY, CHI], state: "FL", us: true },
  "Fla.": { zones: [NY, CHI], state: "FL", us: true },
  TX: { zones: [CHI, DEN], state: "TX", us: true },
  CA: { zones: [LA], state: "CA", us: true },
  "Okla.": { zones: [CHI], state: "OK", us: true },
  "Wash.": { zones: [LA], state: "WA", us: true },
  Utah: { zones: [DEN], state: "UT", us: true },
  AZ: { zones: [PHX, DEN], state: "AZ", us: true },
  Guam: { zones: ["Pacific/Guam"], state: "GU", us: true },
  BC: { zones: [...BC, ...AB, BC_MST], us: false },
  Ontario: { zones: [TOR, WPG, "America/Atikokan"], us: false },
  Alberta: { zones: AB, us: false },
  "British Columbia, Canada": { zones: [...BC, ...AB, BC_MST], us: false },
  Dade: { zones: [], us: false },
};

/** A number's truth with a file's cells: it may be where the number is or where any cell says. */
export function withCells(truth: Truth, cells: LocationHints): Truth {
  const zone = cells.timezone === undefined ? [] : ZONE_CELLS[cells.timezone]!;
  const region = cells.region === undefined ? undefined : REGION_CELLS[cells.region]!;
  const outsideUs = truth.outsideUs && !region?.us;
  return {
    phone: truth.phone,
    place: `${truth.place}, cells ${JSON.stringify(cells)}`,
    zones: [...new Set([...truth.zones, ...zone, ...(region?.zones ?? [])])],
    states: [...new Set([...truth.states, ...(region?.state ? [region.state] : [])])],
    ...(truth.anywhere ? { anywhere: true as const } : {}),
    ...(outsideUs ? { outsideUs: true as const } : {}),
    cells,
  };
}

/** What the oracle checks of a planned campaign: its contacts, span and effective window. */
export interface CheckedCampaign {
  phones: readonly string[];
  scheduledAt: number;
  callUntil: number;
  hours: readonly HoursConstraint[];
}

/**
 * Every 15 minutes of each campaign, and of the one a window close hands its contacts back to
 * (plannedStart at its callUntil), checked against each contact's truth: the illegal instants,
 * described, and how many were checked.
 */
export function illegalInstants(
  campaigns: readonly CheckedCampaign[],
  truthOf: (phone: string) => Truth,
  extra: readonly (readonly [string, string])[],
  marginMs: number,
): { illegal: string[]; checked: number } {
  const illegal: string[] = [];
  let checked = 0;
  for (const c of campaigns) {
    const resumed = plannedStart({ hours: c.hours }, c.callUntil, marginMs);
    const spans = [[c.scheduledAt, c.callUntil]];
    if (resumed?.kind === "start") spans.push([resumed.scheduledAt, resumed.callUntil]);
    for (const phone of c.phones) {
      const truth = truthOf(phone);
      for (const [s, e] of spans)
        for (const t of minutes(s!, e!)) {
          const wrong = allowedAt(t, truth, extra);
          if (wrong) illegal.push(`${truth.place}: ${new Date(t).toISOString()} is ${wrong}`);
          checked += 1;
        }
    }
  }
  return { illegal, checked };
}
