import { describe, expect, it } from "vitest";
import { HOLIDAY_CALENDARS } from "../../../src/calling-rules/index.ts";
import { constraintIntervals } from "../../../src/pipeline/calling/calling-hours.ts";
import { datesOf, easterOf, isHoliday } from "../../../src/pipeline/calling/holidays.ts";

/** The holiday calendars of the state rules, against dates typed out from the statutes for 2026-2027. */
const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`);
const iso = (t: number) => new Date(t).toISOString().slice(0, 10);

function holidaysOf(id: string, year: number): string[] {
  const out: string[] = [];
  for (let t = day(`${year}-01-01`); t < day(`${year + 1}-01-01`); t += 86_400_000)
    if (isHoliday(id, t)) out.push(iso(t));
  return out;
}

describe("holiday calendars", () => {
  it("Easter, Good Friday and Mardi Gras by the Gregorian computus", () => {
    expect([2024, 2025, 2026, 2027, 2038].map((y) => iso(easterOf(y)))).toEqual([
      "2024-03-31",
      "2025-04-20",
      "2026-04-05",
      "2027-03-28",
      "2038-04-25",
    ]);
    expect(datesOf({ easter: -47 }, 2027).map(iso)).toEqual(["2027-02-09"]);
  });

  it("Utah (63G-1-301): weekend dates moved (2028's New Year on 2027-12-31), Juneteenth on its Monday, Good Friday", () => {
    expect(holidaysOf("UT", 2027)).toEqual(
      "2027-01-01 2027-01-18 2027-02-15 2027-03-26 2027-05-31 2027-06-19 2027-06-21 2027-07-04 2027-07-05 2027-07-23 2027-07-24 2027-09-06 2027-10-11 2027-11-11 2027-11-25 2027-12-24 2027-12-25 2027-12-31".split(
        " ",
      ),
    );
    expect(holidaysOf("UT", 2026)).toContain("2026-06-15"); // June 19 is a Friday: the Monday before
  });

  it("Rhode Island (25-1-1 and federal): Victory Day, May 4, election day in even years, Monday for a weekend", () => {
    const ri2026 = holidaysOf("RI", 2026);
    for (const d of ["2026-05-04", "2026-08-10", "2026-11-03", "2026-07-03", "2026-07-06", "2026-11-26"])
      expect(ri2026).toContain(d);
    expect(holidaysOf("RI", 2027)).not.toContain("2027-11-02");
    expect(holidaysOf("RI", 2027)).toContain("2027-12-27");
  });

  it("Louisiana (1:55(A)(1)): Battle of New Orleans, Mardi Gras, Huey P. Long Day, All Saints' Day", () => {
    expect(holidaysOf("LA", 2026)).toEqual(
      "2026-01-01 2026-01-08 2026-01-19 2026-02-16 2026-02-17 2026-04-03 2026-05-25 2026-07-04 2026-08-30 2026-09-07 2026-10-12 2026-11-01 2026-11-11 2026-11-26 2026-12-25".split(
        " ",
      ),
    );
  });

  it("every calendar the rules name exists and cites its law", () => {
    for (const [id, c] of Object.entries(HOLIDAY_CALENDARS)) {
      expect(c.source.cite, id).toMatch(/\S/);
      expect(c.source.url, id).toMatch(/^https?:\/\//);
    }
  });

  it("a window with an `or` window: Rhode Island's weekdays 9-6 but holidays, Saturdays 10-5, no Sundays", () => {
    const ri = {
      timezone: "America/New_York",
      from: "09:00",
      to: "18:00",
      days: ["mon", "tue", "wed", "thu", "fri"] as const,
      holidays: "RI",
      or: [{ from: "10:00", to: "17:00", days: ["sat"] as const }],
    };
    // Thanksgiving week 2026: Wed 25 open, Thu 26 closed, Fri 27 open, Sat 28 10-5, Sun 29 closed.
    const open = constraintIntervals(ri, day("2026-11-25"), day("2026-11-30")).map(([s, e]) => [
      new Date(s).toISOString(),
      new Date(e).toISOString(),
    ]);
    expect(open).toEqual([
      ["2026-11-25T14:00:00.000Z", "2026-11-25T23:00:00.000Z"],
      ["2026-11-27T14:00:00.000Z", "2026-11-27T23:00:00.000Z"],
      ["2026-11-28T15:00:00.000Z", "2026-11-28T22:00:00.000Z"],
    ]);
  });
});
