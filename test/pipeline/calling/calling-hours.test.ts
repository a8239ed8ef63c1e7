import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { RULE_SETS } from "../../../src/calling-rules/index.ts";
import type { CalleeLocation } from "../../../src/pipeline/calling/callee-location.ts";
import { openIntervals } from "../../../src/pipeline/calling/calling-hours.ts";
import { effectiveRules } from "../../../src/pipeline/calling/effective-rules.ts";

/**
 * Each rule's window on a given local day, against instants computed by luxon (a second library,
 * not the code under test), on the DST change days of 2026 and 2027 and a day either side.
 */
const at = (zone: string, day: string, hhmm: string) =>
  DateTime.fromISO(`${day}T${hhmm}`, { zone }).toMillis();

const US_DST = ["2026-03-08", "2026-11-01", "2027-03-14", "2027-11-07"];
const UK_DST = ["2026-03-29", "2026-10-25", "2027-03-28", "2027-10-31"];
const around = (days: string[]) =>
  days.flatMap((d) => [-1, 0, 1].map((n) => DateTime.fromISO(d).plus({ days: n }).toISODate()!));

const where = (zones: string[], country: string, region?: string): CalleeLocation => ({
  country,
  ...(region ? { region } : {}),
  zones,
  from: "number",
});

/** The rules' open span on local day `day`, starting the search at local midnight of that day. */
function spanOn(loc: CalleeLocation, sets: string[], day: string, zone: string) {
  const rules = effectiveRules(
    loc,
    sets.map((s) => RULE_SETS[s]!),
    { fallbackTimezone: "UTC", caps: [] },
  );
  const from = at(zone, day, "00:00");
  return openIntervals(rules.constraints, from, from + 86_400_000)[0];
}

const CASES = [
  {
    name: "US federal, New York",
    loc: where(["America/New_York"], "US", "NY"),
    zone: "America/New_York",
    hours: ["08:00", "21:00"],
  },
  {
    name: "US federal, California",
    loc: where(["America/Los_Angeles"], "US", "CA"),
    zone: "America/Los_Angeles",
    hours: ["08:00", "21:00"],
  },
  {
    name: "Florida",
    loc: where(["America/New_York"], "US", "FL"),
    zone: "America/New_York",
    hours: ["08:00", "20:00"],
  },
  {
    name: "Oklahoma (775C.4 and 755.1)",
    loc: where(["America/Chicago"], "US", "OK"),
    zone: "America/Chicago",
    hours: ["09:00", "20:00"],
  },
  {
    name: "Washington",
    loc: where(["America/Los_Angeles"], "US", "WA"),
    zone: "America/Los_Angeles",
    hours: ["08:00", "20:00"],
  },
];

describe("calling rules against luxon, across DST changes", () => {
  for (const c of CASES) {
    it(`${c.name}: ${c.hours.join("-")} local on and around each US DST change`, () => {
      for (const day of around(US_DST)) {
        expect(spanOn(c.loc, ["us"], day, c.zone), `${c.name} on ${day}`).toEqual([
          at(c.zone, day, c.hours[0]!),
          at(c.zone, day, c.hours[1]!),
        ]);
      }
    });
  }

  it("gb sets no hours: the job's window alone, in London local time across UK DST changes", () => {
    for (const day of around(UK_DST)) {
      const rules = effectiveRules(where(["Europe/London"], "GB"), [RULE_SETS.gb!], {
        window: {
          days: ["mon", "tue", "wed", "thu", "fri", "sat", "sun"],
          from: "09:00",
          to: "20:00",
          timezone: "callee",
        },
        fallbackTimezone: "UTC",
        caps: [],
      });
      const from = at("Europe/London", day, "00:00");
      expect(openIntervals(rules.constraints, from, from + 86_400_000), day).toEqual([
        [at("Europe/London", day, "09:00"), at("Europe/London", day, "20:00")],
      ]);
    }
  });

  it("a US number in several zones is called only while all are open: 08:00 Honolulu to 21:00 New York", () => {
    const zones = [
      "America/Anchorage",
      "America/Chicago",
      "America/Denver",
      "America/Los_Angeles",
      "America/New_York",
      "America/Phoenix",
      "Pacific/Honolulu",
    ];
    for (const day of around(US_DST)) {
      // The New York day whose 21:00 closes it; Honolulu's 08:00 of the same UTC evening opens it.
      const closes = at("America/New_York", day, "21:00");
      const opens = DateTime.fromMillis(closes, { zone: "Pacific/Honolulu" })
        .set({ hour: 8, minute: 0 })
        .toMillis();
      const rules = effectiveRules(where(zones, "US"), [RULE_SETS.us!], {
        fallbackTimezone: "UTC",
        caps: [],
      });
      const open = openIntervals(rules.constraints, opens - 3_600_000, closes + 3_600_000);
      expect(open, day).toEqual([[opens, closes]]);
    }
  });

  it("a job's window narrows the rules and never widens them", () => {
    const day = "2026-07-15";
    const wide = effectiveRules(where(["America/New_York"], "US", "FL"), [RULE_SETS.us!], {
      window: { days: ["wed"], from: "06:00", to: "23:00", timezone: "callee" },
      fallbackTimezone: "UTC",
      caps: [],
    });
    const narrow = effectiveRules(where(["America/New_York"], "US", "FL"), [RULE_SETS.us!], {
      window: { days: ["wed"], from: "10:00", to: "12:00", timezone: "America/Chicago" },
      fallbackTimezone: "UTC",
      caps: [],
    });
    const from = at("America/New_York", day, "00:00");
    expect(openIntervals(wide.constraints, from, from + 86_400_000)).toEqual([
      [at("America/New_York", day, "08:00"), at("America/New_York", day, "20:00")],
    ]);
    expect(openIntervals(narrow.constraints, from, from + 86_400_000)).toEqual([
      [at("America/Chicago", day, "10:00"), at("America/Chicago", day, "12:00")],
    ]);
    // Thursday is not among the job's days: closed all day.
    const thursday = at("America/New_York", "2026-07-16", "00:00");
    expect(openIntervals(wide.constraints, thursday, thursday + 86_400_000)).toEqual([]);
  });

  it("an hour in the spring-forward gap opens at the gap's end", () => {
    // 02:30 does not exist in New York on 2026-03-08: luxon and vcw both move it to 03:00.
    const rules = [{ timezone: "America/New_York", from: "02:30", to: "05:00" }];
    const from = at("America/New_York", "2026-03-08", "00:00");
    expect(openIntervals(rules, from, from + 86_400_000)).toEqual([
      [at("America/New_York", "2026-03-08", "03:00"), at("America/New_York", "2026-03-08", "05:00")],
    ]);
  });
});
