import { US_STATES } from "../us-states.ts";
import type { RuleSet, RuleSource } from "./types.ts";

/**
 * United States: the federal hours of the TCPA rules, and the states whose narrower hours or caps
 * vcw's authors found in a primary source (docs/compliance.md). Data, not legal advice.
 */
const READ = "2026-11-23";

const tcpa: RuleSource = {
  cite: "47 CFR 64.1200(c)(1)",
  url: "https://www.ecfr.gov/current/title-47/chapter-I/subchapter-B/part-64/subpart-L/section-64.1200",
  read: READ,
  kind: "law",
};
const florida: RuleSource = {
  cite: "Fla. Stat. 501.616(6)(a)-(b) (Florida Telemarketing Act, as amended 2021 by SB 1120)",
  url: "https://flsenate.gov/Session/Bill/2021/1120/BillText/Filed/HTML",
  read: READ,
  kind: "law",
};
const oklahoma: RuleSource = {
  cite: "15 O.S. 775C.4 (Telephone Solicitation Act of 2022, HB 3168, in force 2022-11-01)",
  url: "https://app.legiplex.com/ok/legislature/2022/2022-r/bills/hb3168/drafts-latest",
  read: READ,
  kind: "law",
};
const oklahomaAdad: RuleSource = {
  cite: "15 O.S. 755.1(C)(2)(a) (automatic dial announcing devices)",
  url: "https://lexace.ai/us/statute/oklahoma/15-755.1",
  read: READ,
  kind: "law",
};
const territories: RuleSource = {
  cite: '47 U.S.C. 152(a) and 153 ("United States" means the several States and Territories, the District of Columbia, and the possessions): the TCPA (47 U.S.C. 227) and 47 CFR 64.1200 reach Puerto Rico, Guam, the U.S. Virgin Islands, American Samoa and the Northern Mariana Islands',
  url: "https://www.law.cornell.edu/uscode/text/47/153",
  read: "2026-11-25",
  kind: "law",
};
const washington: RuleSource = {
  cite: "RCW 19.158.040(2)",
  url: "https://app.leg.wa.gov/RCW/default.aspx?cite=19.158.040",
  read: READ,
  kind: "law",
};

export const US: RuleSet = {
  id: "us",
  // The states and DC, and the territories (libphonenumber gives their numbers their own countries).
  countries: ["US", "PR", "GU", "VI", "AS", "MP"],
  national: {
    name: "United States (federal)",
    hours: [{ from: "08:00", to: "21:00", source: tcpa }],
    caps: [],
  },
  regions: {
    FL: {
      name: "Florida",
      zones: US_STATES.FL!.zones,
      hours: [{ from: "08:00", to: "20:00", source: florida }],
      caps: [{ calls: 3, perHours: 24, source: florida }],
    },
    OK: {
      name: "Oklahoma",
      zones: US_STATES.OK!.zones,
      hours: [
        { from: "08:00", to: "20:00", source: oklahoma },
        { from: "09:00", to: "21:00", source: oklahomaAdad },
      ],
      caps: [{ calls: 3, perHours: 24, source: oklahoma }],
    },
    WA: {
      name: "Washington",
      zones: US_STATES.WA!.zones,
      hours: [{ from: "08:00", to: "20:00", source: washington }],
      caps: [],
    },
  },
  notes: [
    "Florida and Oklahoma count 3 calls per 24 hours on the same subject: vcw counts every call to the number, whatever the subject (stricter).",
    "A number's state is the file's state column, else its area code's (Oklahoma presumes a call to its area codes reaches a resident).",
    `The federal hours apply in the territories too (${territories.cite}).`,
  ],
};
