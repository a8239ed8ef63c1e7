import { describe, expect, it } from "vitest";
import { instantOf, wallClock } from "../../../src/lib/time-zone.ts";
import { nextOpening } from "../../../src/pipeline/calling/calling-hours.ts";
import type { JobWindow } from "../../../src/pipeline/calling/effective-rules.ts";

const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());
const at = (text: string) => Date.parse(text);
const weekdays: JobWindow["days"] = ["mon", "tue", "wed", "thu", "fri"];
const ny = (from: string, to: string, days = weekdays): JobWindow => ({
  days,
  from,
  to,
  timezone: "America/New_York",
});

describe("nextOpening", () => {
  it("inside an open window: now", () => {
    // Tuesday 2026-11-24, 10:00 in New York (EST, UTC-5).
    expect(iso(nextOpening(ny("09:00", "17:00"), at("2026-11-24T15:00:00Z")))).toBe(
      "2026-11-24T15:00:00.000Z",
    );
  });

  it("before the opening: today's opening; after the closing: the next day's", () => {
    expect(iso(nextOpening(ny("09:00", "17:00"), at("2026-11-24T12:00:00Z")))).toBe(
      "2026-11-24T14:00:00.000Z",
    );
    expect(iso(nextOpening(ny("09:00", "17:00"), at("2026-11-24T22:30:00Z")))).toBe(
      "2026-11-25T14:00:00.000Z",
    );
  });

  it("skips the weekend: Friday evening opens Monday morning", () => {
    expect(iso(nextOpening(ny("09:00", "17:00"), at("2026-11-27T23:00:00Z")))).toBe(
      "2026-11-30T14:00:00.000Z",
    );
  });

  it("the local day, not the UTC day: 23:00 Sunday in New York is already Monday in UTC", () => {
    expect(iso(nextOpening(ny("09:00", "17:00"), at("2026-11-30T04:00:00Z")))).toBe(
      "2026-11-30T14:00:00.000Z",
    );
  });

  it("across the spring-forward change: the same local hour, one hour less of UTC offset", () => {
    // Friday 2026-03-06 09:00 EST = 14:00Z; Monday 2026-03-09 09:00 EDT = 13:00Z.
    expect(iso(nextOpening(ny("09:00", "17:00"), at("2026-03-06T23:00:00Z")))).toBe(
      "2026-03-09T13:00:00.000Z",
    );
  });

  it("across the fall-back change", () => {
    // Friday 2026-10-30 09:00 EDT = 13:00Z; Monday 2026-11-02 09:00 EST = 14:00Z.
    expect(iso(nextOpening(ny("09:00", "17:00"), at("2026-10-30T22:00:00Z")))).toBe(
      "2026-11-02T14:00:00.000Z",
    );
  });

  it("an opening inside the spring-forward gap opens when the gap ends", () => {
    // Sunday 2026-03-08: 02:00 EST jumps to 03:00 EDT (07:00Z). 02:30 does not exist.
    const window = ny("02:30", "04:00", ["sun"]);
    expect(iso(nextOpening(window, at("2026-03-08T05:00:00Z")))).toBe("2026-03-08T07:00:00.000Z");
  });

  it("an opening in the repeated hour of fall back opens at its first occurrence", () => {
    // Sunday 2026-11-01: 01:30 happens at 05:30Z (EDT) and again at 06:30Z (EST).
    const window = ny("01:30", "03:00", ["sun"]);
    expect(iso(nextOpening(window, at("2026-11-01T04:00:00Z")))).toBe("2026-11-01T05:30:00.000Z");
  });

  it("Europe/London and a zone east of UTC", () => {
    const london: JobWindow = { days: weekdays, from: "09:00", to: "17:00", timezone: "Europe/London" };
    // Summer time ends 2026-10-25: 09:00 BST on Friday 23rd = 08:00Z, 09:00 GMT on Monday 26th = 09:00Z.
    expect(iso(nextOpening(london, at("2026-10-23T07:00:00Z")))).toBe("2026-10-23T08:00:00.000Z");
    expect(iso(nextOpening(london, at("2026-10-23T17:00:00Z")))).toBe("2026-10-26T09:00:00.000Z");
    const tokyo: JobWindow = { days: weekdays, from: "09:00", to: "17:00", timezone: "Asia/Tokyo" };
    expect(iso(nextOpening(tokyo, at("2026-11-24T10:00:00Z")))).toBe("2026-11-25T00:00:00.000Z");
  });

  it("no days: never opens", () => {
    expect(nextOpening(ny("09:00", "17:00", []), at("2026-11-24T15:00:00Z"))).toBeUndefined();
  });
});

describe("instantOf / wallClock", () => {
  it("round-trips every hour of a year in New York, except the gap", () => {
    const zone = "America/New_York";
    for (let t = at("2026-01-01T00:00:00Z"); t < at("2027-01-01T00:00:00Z"); t += 3_600_000) {
      const wall = wallClock(t, zone);
      const back = instantOf(wall, zone);
      // In the repeated hour the earlier instant is chosen.
      expect(back === t || back === t - 3_600_000).toBe(true);
      expect(wallClock(back, zone)).toBe(wall);
    }
  });
});
