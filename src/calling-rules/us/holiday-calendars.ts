import { law } from "../sources.ts";
import type { DateRule, HolidayCalendar } from "../types.ts";

/**
 * Holiday calendars the state rules name (docs/compliance.md). Only days a statute names by date or
 * by rule: days a governor or president proclaims are not known in advance and are not here. Where
 * a statute moves a weekend holiday to a weekday, both days are kept (the stricter reading).
 */
const READ = "2026-11-25";
const source = (cite: string, url: string) => law(cite, url, READ);

const MON = 1;
const THU = 4;
const fixed = (month: number, day: number, observed?: DateRule["observed"]): DateRule => ({
  month,
  day,
  ...(observed ? { observed } : {}),
});
const nth = (month: number, weekday: number, n: number): DateRule => ({ month, weekday, nth: n });

/** 5 U.S.C. 6103(a), with 6103(b)'s weekday for a weekend date. */
const FEDERAL_DAYS = [
  { name: "New Year's Day", rule: fixed(1, 1, "friday-monday") },
  { name: "Birthday of Martin Luther King, Jr.", rule: nth(1, MON, 3) },
  { name: "Washington's Birthday", rule: nth(2, MON, 3) },
  { name: "Memorial Day", rule: nth(5, MON, -1) },
  { name: "Juneteenth National Independence Day", rule: fixed(6, 19, "friday-monday") },
  { name: "Independence Day", rule: fixed(7, 4, "friday-monday") },
  { name: "Labor Day", rule: nth(9, MON, 1) },
  { name: "Columbus Day", rule: nth(10, MON, 2) },
  { name: "Veterans Day", rule: fixed(11, 11, "friday-monday") },
  { name: "Thanksgiving Day", rule: nth(11, THU, 4) },
  { name: "Christmas Day", rule: fixed(12, 25, "friday-monday") },
];
const FEDERAL_SOURCE = source(
  "5 U.S.C. 6103 (legal public holidays)",
  "https://www.law.cornell.edu/uscode/text/5/6103",
);

export const HOLIDAY_CALENDARS: Readonly<Record<string, HolidayCalendar>> = {
  "us-federal": { name: "US federal legal holidays", days: FEDERAL_DAYS, source: FEDERAL_SOURCE },
  /** Rhode Island's hours exclude "a state or federal holiday": R.I. Gen. Laws 25-1-1 and the federal ones. */
  RI: {
    name: "Rhode Island state and federal holidays",
    days: [
      ...FEDERAL_DAYS,
      { name: "New Year's Day", rule: fixed(1, 1, "monday") },
      { name: "Rhode Island Independence Day", rule: fixed(5, 4, "monday") },
      { name: "Independence Day", rule: fixed(7, 4, "monday") },
      { name: "Victory Day", rule: nth(8, MON, 2) },
      { name: "Veterans' Day", rule: fixed(11, 11, "monday") },
      { name: "Christmas Day", rule: fixed(12, 25, "monday") },
      // "the Tuesday next after the first Monday in November in each year in which a general
      // election of state officers is held": the even years.
      { name: "Election day", rule: { ...nth(11, MON, 1), plusDays: 1, evenYears: true } },
    ],
    source: source(
      "R.I. Gen. Laws 25-1-1 (general holidays enumerated), with 5 U.S.C. 6103",
      "http://statutes.laws-info.com/rhode-island/title-25/chapter-25-1/25-1-1",
    ),
  },
  /** Utah Code 63G-1-301 (as effective 2026-05-06; every Sunday is a legal holiday too: the rule's days say so). */
  UT: {
    name: "Utah legal holidays",
    days: [
      { name: "New Year's Day", rule: fixed(1, 1, "friday-monday") },
      { name: "Independence Day", rule: fixed(7, 4, "friday-monday") },
      { name: "Pioneer Day", rule: fixed(7, 24, "friday-monday") },
      { name: "Veterans Day", rule: fixed(11, 11, "friday-monday") },
      { name: "Christmas", rule: fixed(12, 25, "friday-monday") },
      { name: "Dr. Martin Luther King, Jr. Day", rule: nth(1, MON, 3) },
      { name: "Washington and Lincoln Day (Presidents' Day)", rule: nth(2, MON, 3) },
      { name: "Good Friday", rule: { easter: -2 } },
      { name: "Memorial Day", rule: nth(5, MON, -1) },
      { name: "Labor Day", rule: nth(9, MON, 1) },
      { name: "Columbus Day", rule: nth(10, MON, 2) },
      { name: "Thanksgiving Day", rule: nth(11, THU, 4) },
      // June 19, observed on the Monday before it (Tuesday to Friday) or after it (a weekend).
      { name: "Juneteenth National Freedom Day", rule: fixed(6, 19, "nearest-monday") },
    ],
    source: source(
      "Utah Code 63G-1-301 (legal holidays)",
      "https://self-law.org/code/ut/title-63g/chapter-1/1",
    ),
  },
  /** La. R.S. 1:55(A)(1), the days of public rest and legal holidays of the whole state. */
  LA: {
    name: "Louisiana legal holidays",
    days: [
      { name: "New Year's Day", rule: fixed(1, 1) },
      { name: "Battle of New Orleans", rule: fixed(1, 8) },
      { name: "Dr. Martin Luther King, Jr.'s Birthday", rule: nth(1, MON, 3) },
      { name: "Washington's Birthday and Presidents' Day", rule: nth(2, MON, 3) },
      { name: "Mardi Gras", rule: { easter: -47 } },
      { name: "Good Friday", rule: { easter: -2 } },
      { name: "National Memorial Day", rule: nth(5, MON, -1) },
      { name: "Independence Day", rule: fixed(7, 4) },
      { name: "Huey P. Long Day", rule: fixed(8, 30) },
      { name: "Labor Day", rule: nth(9, MON, 1) },
      { name: "Christopher Columbus Day", rule: nth(10, MON, 2) },
      { name: "All Saints' Day", rule: fixed(11, 1) },
      { name: "Veterans' Day", rule: fixed(11, 11) },
      { name: "Thanksgiving Day", rule: nth(11, THU, 4) },
      { name: "Christmas Day", rule: fixed(12, 25) },
    ],
    source: source(
      "La. R.S. 1:55(A)(1) (days of public rest and legal holidays)",
      "https://legis.la.gov/legis/Law.aspx?d=74097",
    ),
  },
};
