import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { openIntervals } from "../../../src/pipeline/calling/calling-hours.ts";
import { windowCloseAfter } from "../../../src/pipeline/campaign/stopping/window-close.ts";

/**
 * Issue 31 item 9: a custom window across a clock change holds only the instants whose local clock,
 * at that instant, reads a time inside it. Checked minute by minute against luxon.
 */
const Z = (iso: string) => Date.parse(iso);
const localHhmm = (t: number, zone: string) => DateTime.fromMillis(t, { zone }).toFormat("HH:mm");

function minutesInside(intervals: readonly (readonly [number, number])[]): number[] {
  const out: number[] = [];
  for (const [s, e] of intervals) for (let t = s; t < e; t += 60_000) out.push(t);
  return out;
}

describe("custom windows across clock changes", () => {
  const cases = [
    { zone: "America/New_York", day: "2026-11-01", from: "01:30", to: "02:30" },
    { zone: "America/New_York", day: "2026-03-08", from: "01:30", to: "03:30" },
    { zone: "Europe/London", day: "2026-10-25", from: "00:30", to: "02:30" },
    { zone: "Europe/London", day: "2026-03-29", from: "00:30", to: "02:30" },
    { zone: "America/Chicago", day: "2026-11-01", from: "00:00", to: "23:59" },
  ];
  for (const c of cases) {
    it(`${c.from}-${c.to} ${c.zone} on ${c.day}: exactly the minutes whose local time is inside`, () => {
      const start = DateTime.fromISO(`${c.day}T00:00`, { zone: c.zone }).toMillis() - 6 * 3_600_000;
      const end = start + 36 * 3_600_000;
      const open = openIntervals([{ timezone: c.zone, from: c.from, to: c.to }], start, end);
      const inside = new Set(minutesInside(open));
      for (let t = start; t < end; t += 60_000) {
        const local = DateTime.fromMillis(t, { zone: c.zone });
        const hhmm = local.toFormat("HH:mm");
        const expected = hhmm >= c.from && hhmm < c.to;
        expect(inside.has(t), `${new Date(t).toISOString()} is ${hhmm} local`).toBe(expected);
      }
    });
  }

  it("01:30-02:30 New York on 2026-11-01 is 05:30-06:00Z and 06:30-07:30Z, not 05:30-07:30Z", () => {
    const open = openIntervals(
      [{ timezone: "America/New_York", from: "01:30", to: "02:30" }],
      Z("2026-11-01T00:00:00Z"),
      Z("2026-11-02T00:00:00Z"),
    );
    expect(open).toEqual([
      [Z("2026-11-01T05:30:00Z"), Z("2026-11-01T06:00:00Z")],
      [Z("2026-11-01T06:30:00Z"), Z("2026-11-01T07:30:00Z")],
    ]);
    expect(localHhmm(Z("2026-11-01T06:15:00Z"), "America/New_York")).toBe("01:15");
  });

  it("a job window's close (window-close.ts) is the end of the piece open then: 02:00 EDT, not 02:30 EST", () => {
    const window = { days: ["sun"] as const, from: "01:30", to: "02:30", timezone: "America/New_York" };
    expect(windowCloseAfter(window, Z("2026-11-01T05:40:00Z"))).toBe(Z("2026-11-01T06:00:00Z"));
    expect(windowCloseAfter(window, Z("2026-11-01T06:10:00Z"))).toBe(Z("2026-11-01T07:30:00Z"));
  });
});
