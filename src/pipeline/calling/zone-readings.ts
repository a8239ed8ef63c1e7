import { distinctTimeZones } from "./distinct-zones.ts";

/**
 * Zones whose clock changed so lately that a runtime's zone data may not know it: vcw runs on
 * whatever ICU its Node has (Node 22.23.3 from nodejs.org has tz 2026c, a distribution's build of
 * the same version may have 2025c), and the tz database itself gives a provisional date. A callee in
 * such a zone is called only when the call is legal by the clock before the change and by the one
 * after, each a zone whose rules no release changed: the zone's own reading is a third. Data with
 * its sources, like the rule sets (read 2026-11-28).
 */
interface Reading {
  /** Zones that keep the clock before the change and the one after. */
  clocks: readonly string[];
  source: string;
}

const BRITISH_COLUMBIA: Reading = {
  // PST/PDT as Los Angeles keeps them; -07 all year.
  clocks: ["America/Los_Angeles", "Etc/GMT+7"],
  source:
    "B.C. Gov News 2026AG0013-000209 (2026-03-02): the 2026-03-08 spring forward is the last time change, permanent daylight time after it; tz 2026b models -07 from 2026-11-01",
};

const ALBERTA: Reading = {
  // MST/MDT as Denver keeps them; -06 all year.
  clocks: ["America/Denver", "Etc/GMT+6"],
  source:
    "Alberta Bill 31, Red Tape Reduction Statutes Amendment Act, 2026 (repeals the Daylight Saving Time Act); tz 2026c: Alberta stops changing clocks, -06 from 2026-11-01 02:00, a date it may revise",
};

/** By zone name, the links to it included (Yellowknife follows Edmonton in the tz database). */
const READINGS: Readonly<Record<string, Reading>> = {
  "America/Vancouver": BRITISH_COLUMBIA,
  "Canada/Pacific": BRITISH_COLUMBIA,
  "America/Edmonton": ALBERTA,
  "Canada/Mountain": ALBERTA,
  "America/Yellowknife": ALBERTA,
};

/**
 * `zones` (one per clock) and the clocks of every reading of them that keep another time, the
 * callee's own first: a campaign is labelled, and its times read, in its first zone.
 */
export function everyReading(zones: readonly string[]): string[] {
  const own = distinctTimeZones(zones);
  const all = distinctTimeZones([...own, ...own.flatMap((zone) => READINGS[zone]?.clocks ?? [])]);
  return [...all.filter((zone) => own.includes(zone)), ...all.filter((zone) => !own.includes(zone))];
}
