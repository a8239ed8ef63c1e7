import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { JobDefinition } from "../../../src/config/job-definition.ts";
import type { LocationHints } from "../../../src/ingest/location-columns.ts";
import type { JobWindow } from "../../../src/pipeline/calling/effective-rules.ts";
import { gatherFacts } from "../../../src/pipeline/calling/gather-facts.ts";
import {
  type ContactFacts,
  type PlanSettings,
  planCampaigns,
} from "../../../src/pipeline/calling/plan-campaigns.ts";
import { plannedStart } from "../../../src/pipeline/calling/planned-start.ts";
import { customRuleSet, RULE_SETS } from "../../../src/pipeline/calling/rules/index.ts";
import { tempDir } from "../../support/files.ts";

/**
 * Issue 31's done-when: an oracle of its own. Where each number really is comes from the hand-made
 * table below (area codes and exchanges with the places they serve, and the zones 49 CFR Part 71
 * puts those places in), and what the law allows there from the oracle's own reading of the rules
 * (federal hours for the states and the territories; Florida, Oklahoma, Washington). Times come
 * from luxon, not from the code under test. For every number, at every planning instant of the
 * DST-change days and of the UK/US mismatch weeks (and 20:30 in New York), for a job that starts
 * asap, one with a window in the callee's zone and one with a custom window across the clock
 * change, every instant of every planned campaign, and of the campaign a window close hands its
 * contacts back to, must be allowed in every zone the callee may really be in.
 */

/**
 * Where a number really is: the zones it may be in and the state(s) whose rules govern it there
 * (a toll-free number: any state, each in its own zones).
 */
interface Truth {
  phone: string;
  place: string;
  zones: string[];
  states: string[];
  anywhere?: true;
  cells?: LocationHints;
}

const NY = "America/New_York";
const CHI = "America/Chicago";
const DEN = "America/Denver";
const PHX = "America/Phoenix";
const LA = "America/Los_Angeles";
const AK = "America/Anchorage";
const ADAK = "America/Adak";
const HI = "Pacific/Honolulu";
const PR = "America/Puerto_Rico";
/** Where a toll-free number may ring: the states, DC, Puerto Rico and the Virgin Islands (docs/spec-gaps.md). */
const ANYWHERE = [NY, CHI, DEN, PHX, LA, AK, ADAK, HI, PR];

const TABLE: Truth[] = [
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
    zones: ["Pacific/Guam"],
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

function allowedAt(
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
    for (const state of ["federal", ...states])
      if (!stateAllows(state, local))
        return `${local.toFormat("ccc yyyy-MM-dd HH:mm")} in ${zone} (${state})`;
    for (const [from, to] of extra) if (!between(hhmm, from, to)) return `${hhmm} in ${zone} (${from}-${to})`;
  }
  return undefined;
}

/**
 * Planning instants: every 3 h of the DST-change days and the UK/US mismatch weeks, 20:30 in New
 * York, and every 6 h around the holidays the states' rules name (and the weekends around them).
 */
const DAYS = [
  "2026-03-08",
  "2026-03-09",
  "2026-03-15",
  "2026-03-29",
  "2026-10-25",
  "2026-10-28",
  "2026-11-01",
  "2026-11-02",
];
const HOLIDAY_DAYS = [
  "2026-02-16",
  "2026-04-02",
  "2026-06-14",
  "2026-07-02",
  "2026-07-05",
  "2026-07-23",
  "2026-08-09",
  "2026-11-25",
  "2026-12-24",
  "2026-12-31",
  "2027-02-08",
  "2027-03-25",
  "2027-06-18",
  "2027-07-03",
  "2027-12-23",
];
const at = (day: string, hours: readonly number[]) =>
  hours.map((h) => DateTime.fromISO(`${day}T00:00Z`).plus({ hours: h }).toMillis());
const INSTANTS = [
  ...DAYS.flatMap((d) => at(d, [0, 3, 6, 9, 12, 15, 18, 21])),
  ...HOLIDAY_DAYS.flatMap((d) => at(d, [0, 6, 12, 18])),
  DateTime.fromISO("2026-11-24T20:30", { zone: NY }).toMillis(),
  DateTime.fromISO("2026-03-08T01:59", { zone: NY }).toMillis(),
  DateTime.fromISO("2026-11-01T01:30", { zone: NY }).toMillis(),
];

const ALL_DAYS: JobWindow["days"] = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];
const MARGIN = 15 * 60_000;

function settings(at: number, o: Partial<PlanSettings>): PlanSettings {
  return {
    at,
    ruleSets: [RULE_SETS.us!],
    fallbackTimezone: "UTC",
    caps: [],
    pacePerMinute: 1,
    marginMs: MARGIN,
    horizonMs: 2 * 86_400_000,
    ...o,
  };
}

/** The table as a contacts file, read by the daemon's own fact gathering (location columns, then the number). */
async function tableFacts(rows: readonly Truth[]): Promise<ContactFacts[]> {
  const dir = tempDir("vcw-oracle-");
  const lines = [
    "First Name,Phone,State,Time Zone",
    ...rows.map((r, i) => `Callee ${i},${r.phone},${r.cells?.region ?? ""},${r.cells?.timezone ?? ""}`),
  ];
  writeFileSync(join(dir, "table.csv"), `${lines.join("\n")}\n`);
  const def = JobDefinition.parse({
    name: "oracle",
    inbox: dir,
    segment: { name: "oracle" },
    contacts: { country: "US" },
    campaign: { assistant: { id: "a" }, dialer: { id: "d" } },
    calling: { rules: ["us"] },
  });
  const none = async () => new Set<string>();
  const empty = async () => new Map();
  const read = await gatherFacts(
    def,
    join(dir, "table.csv"),
    { suppressed: none, lastCalled: empty, callTimes: empty },
    Date.now(),
  );
  expect(read.contacts).toHaveLength(rows.length);
  return read.contacts;
}

/** Every 15 minutes of [start, end), and its last minute. */
function* minutes(start: number, end: number): Generator<number> {
  for (let t = start; t < end; t += 15 * 60_000) yield t;
  if (end > start) yield end - 60_000;
}

function assertLegal(
  campaigns: { phones: string[]; scheduledAt: number; callUntil: number; hours: readonly unknown[] }[],
  extra: readonly (readonly [string, string])[],
  at: number,
) {
  let checked = 0;
  for (const c of campaigns) {
    // The campaign, and the one its contacts are handed back to when its window closes.
    const resumed = plannedStart({ hours: c.hours as never }, c.callUntil, MARGIN);
    const spans = [[c.scheduledAt, c.callUntil]];
    if (resumed?.kind === "start") spans.push([resumed.scheduledAt, resumed.callUntil]);
    for (const phone of c.phones) {
      const truth = TABLE.find((x) => x.phone === phone)!;
      for (const [s, e] of spans)
        for (const t of minutes(s!, e!)) {
          const wrong = allowedAt(t, truth, extra);
          expect(
            wrong,
            `${truth.place}: ${new Date(t).toISOString()} is ${wrong} (planned at ${new Date(at).toISOString()})`,
          ).toBeUndefined();
          checked += 1;
        }
    }
  }
  return checked;
}

// Each case checks thousands of minutes (about 23 s alone on two cores): a loaded machine needs more than the default.
describe("the oracle: no illegal instant, for any number of the table, at the DST and mismatch instants", () => {
  it("asap under rules [us]", async () => {
    const facts = await tableFacts(TABLE);
    let checked = 0;
    for (const at of INSTANTS) {
      const plan = planCampaigns(facts, settings(at, {}));
      checked += assertLegal(plan.campaigns, [], at);
    }
    expect(checked).toBeGreaterThan(5_000);
  }, 120_000);

  it("a window in the callee's zone (07:00-22:00, wider than the law) under rules [us]", async () => {
    const facts = await tableFacts(TABLE);
    for (const at of INSTANTS) {
      const window = { days: ALL_DAYS, from: "07:00", to: "22:00", timezone: "callee" };
      const plan = planCampaigns(facts, settings(at, { window, fallbackTimezone: CHI }));
      assertLegal(plan.campaigns, [], at);
      // None silently dropped: a number with no opening in two days (a toll-free one over a
      // weekend and a holiday: every state's days apply) is skipped as outside_hours, and a week's
      // horizon plans it, legally too.
      const skipped = plan.skips.map((x) => x.phone);
      expect(new Set(plan.skips.map((x) => x.reason))).toEqual(
        new Set(skipped.length ? ["outside_hours"] : []),
      );
      expect([...plan.campaigns.flatMap((c) => c.phones), ...skipped].sort()).toEqual(
        TABLE.map((x) => x.phone).sort(),
      );
      const week = planCampaigns(
        facts.filter((f) => skipped.includes(f.phone)),
        settings(at, { window, fallbackTimezone: CHI, horizonMs: 7 * 86_400_000 }),
      );
      expect(week.campaigns.flatMap((c) => c.phones).sort()).toEqual([...skipped].sort());
      assertLegal(week.campaigns, [], at);
    }
  }, 120_000);

  it("a custom window across the clock change (01:30-02:30), rules [custom] alone: only its local minutes", async () => {
    const custom = customRuleSet({ hours: { from: "01:30", to: "02:30" } });
    const facts = await tableFacts(TABLE.filter((x) => x.zones.length === 1 && x.zones[0] === NY));
    for (const at of INSTANTS) {
      const plan = planCampaigns(facts, settings(at, { ruleSets: [custom], marginMs: 0 }));
      for (const c of plan.campaigns)
        for (const t of minutes(c.scheduledAt, c.callUntil)) {
          const hhmm = DateTime.fromMillis(t, { zone: NY }).toFormat("HH:mm");
          expect(
            hhmm >= "01:30" && hhmm < "02:30",
            `${new Date(t).toISOString()} is ${hhmm} in New York`,
          ).toBe(true);
        }
    }
  });
});
