import { US_STATES, usStateCode } from "../regions/us-states.ts";
import { law } from "../sources.ts";
import type { RuleSet, RuleSetFolder, RuleSource } from "../types.ts";
import { HOLIDAY_CALENDARS } from "./holiday-calendars.ts";

/**
 * United States: the federal hours of the TCPA rules, and the states whose narrower hours or caps
 * vcw's authors found in a primary source (docs/compliance.md). Data, not legal advice.
 */
const READ = "2026-11-23";
const READ_DAYS = "2026-11-25";

/** Every statute the rules below cite, defined once: a rule cites one by reference (`SOURCES.florida`). */
const SOURCES = {
  tcpa: law(
    "47 CFR 64.1200(c)(1)",
    "https://www.ecfr.gov/current/title-47/chapter-I/subchapter-B/part-64/subpart-L/section-64.1200",
    READ,
  ),
  florida: law(
    "Fla. Stat. 501.616(6)(a)-(b) (Florida Telemarketing Act, as amended 2021 by SB 1120)",
    "https://flsenate.gov/Session/Bill/2021/1120/BillText/Filed/HTML",
    READ,
  ),
  oklahoma: law(
    "15 O.S. 775C.4 (Telephone Solicitation Act of 2022, HB 3168, in force 2022-11-01)",
    "https://app.legiplex.com/ok/legislature/2022/2022-r/bills/hb3168/drafts-latest",
    READ,
  ),
  oklahomaAdad: law(
    "15 O.S. 755.1(C)(2)(a) (automatic dial announcing devices)",
    "https://lexace.ai/us/statute/oklahoma/15-755.1",
    READ,
  ),
  utah: law(
    "Utah Code 13-25a-103(3): no telephone solicitation without prior express consent between 9 p.m. and 8 a.m. local time, on a Sunday or on a legal holiday (Utah Code 63G-1-301)",
    "https://codes.findlaw.com/ut/title-13-commerce-and-trade/ut-code-sect-13-25a-103/",
    READ_DAYS,
  ),
  rhodeIsland: law(
    'R.I. Gen. Laws 5-61-3.6 (unsolicited telephonic sales calls only during "hours of operation") and 5-61-2 ("Monday through Friday, except a state or federal holiday, 9:00 a.m. to 6:00 p.m.; Saturday 10:00 a.m. to 5:00 p.m.")',
    "http://webserver.rilin.state.ri.us/Statutes/TITLE5/5-61/5-61-3.6.HTM",
    READ_DAYS,
  ),
  louisiana: law(
    "La. R.S. 45:811(2)-(3): calls by automatic dialing equipment or a live operator to advertise or offer goods or services only between 8:00 a.m. and 8:00 p.m., Monday through Saturday, not on state holidays (R.S. 1:55) or Sundays; R.S. 1:55(A)(1) makes every Saturday a legal holiday in Orleans parish and other parishes, which a number does not tell apart: no Saturdays",
    "https://lawserver.com/?p=30183792",
    READ_DAYS,
  ),
  mississippi: law(
    'Miss. Code Ann. 77-3-723(1): authorized telephone solicitations "only between the hours of 8:00 a.m. and 8:00 p.m. Central Standard Time"; "No telephone solicitations may be made on a Sunday" (read as both Central Standard Time all year and local time)',
    "https://getpocketlaw.com/law/state_mississippi/section-77-3-723-rules-for-authorized-calls_57b73fa7ff73",
    READ_DAYS,
  ),
  territories: law(
    '47 U.S.C. 152(a) and 153 ("United States" means the several States and Territories, the District of Columbia, and the possessions): the TCPA (47 U.S.C. 227) and 47 CFR 64.1200 reach Puerto Rico, Guam, the U.S. Virgin Islands, American Samoa and the Northern Mariana Islands',
    "https://www.law.cornell.edu/uscode/text/47/153",
    "2026-11-25",
  ),
  washington: law("RCW 19.158.040(2)", "https://app.leg.wa.gov/RCW/default.aspx?cite=19.158.040", READ),
} as const satisfies Record<string, RuleSource>;

const MON_SAT = ["mon", "tue", "wed", "thu", "fri", "sat"] as const;
const MON_FRI = ["mon", "tue", "wed", "thu", "fri"] as const;

export const US: RuleSet = {
  id: "us",
  // The states and DC, and the territories (libphonenumber gives their numbers their own countries).
  countries: ["US", "PR", "GU", "VI", "AS", "MP"],
  national: {
    name: "United States (federal)",
    hours: [{ from: "08:00", to: "21:00", source: SOURCES.tcpa }],
    caps: [],
  },
  regions: {
    FL: {
      name: "Florida",
      zones: US_STATES.FL!.zones,
      hours: [{ from: "08:00", to: "20:00", source: SOURCES.florida }],
      caps: [{ calls: 3, perHours: 24, source: SOURCES.florida }],
    },
    OK: {
      name: "Oklahoma",
      zones: US_STATES.OK!.zones,
      hours: [
        { from: "08:00", to: "20:00", source: SOURCES.oklahoma },
        { from: "09:00", to: "21:00", source: SOURCES.oklahomaAdad },
      ],
      caps: [{ calls: 3, perHours: 24, source: SOURCES.oklahoma }],
    },
    UT: {
      name: "Utah",
      zones: US_STATES.UT!.zones,
      hours: [{ from: "08:00", to: "21:00", days: MON_SAT, holidays: "UT", source: SOURCES.utah }],
      caps: [],
    },
    RI: {
      name: "Rhode Island",
      zones: US_STATES.RI!.zones,
      hours: [
        {
          from: "09:00",
          to: "18:00",
          days: MON_FRI,
          holidays: "RI",
          or: [{ from: "10:00", to: "17:00", days: ["sat"] }],
          source: SOURCES.rhodeIsland,
        },
      ],
      caps: [],
    },
    LA: {
      name: "Louisiana",
      zones: US_STATES.LA!.zones,
      hours: [{ from: "08:00", to: "20:00", days: MON_FRI, holidays: "LA", source: SOURCES.louisiana }],
      caps: [],
    },
    MS: {
      name: "Mississippi",
      zones: US_STATES.MS!.zones,
      hours: [
        { from: "08:00", to: "20:00", days: MON_SAT, source: SOURCES.mississippi },
        // Central Standard Time, UTC-6 all year ("Etc/GMT+6" is IANA's name for it).
        { from: "08:00", to: "20:00", days: MON_SAT, timezone: "Etc/GMT+6", source: SOURCES.mississippi },
      ],
      caps: [],
    },
    WA: {
      name: "Washington",
      zones: US_STATES.WA!.zones,
      hours: [{ from: "08:00", to: "20:00", source: SOURCES.washington }],
      caps: [],
    },
  },
  notes: [
    "Florida and Oklahoma count 3 calls per 24 hours on the same subject: vcw counts every call to the number, whatever the subject (stricter).",
    "A number's state is the file's state column, else its area code's; the area code's state's rules apply too when the file places it elsewhere (Florida and Oklahoma presume a call to their area codes reaches someone there).",
    `The federal hours apply in the territories too (${SOURCES.territories.cite}).`,
  ],
  regionOf: usStateCode,
};

/** The `us` rule set: federal hours, the states' narrower hours and caps, their holiday calendars. */
export const US_RULES: RuleSetFolder = {
  rules: US,
  summary: "federal hours, state overrides",
  calendars: HOLIDAY_CALENDARS,
};
