import { describe, expect, it } from "vitest";
import {
  notDialled,
  overWithWithdrawn,
  undialled,
} from "../../../src/pipeline/campaign/stopping/stop-selection.ts";
import { describeStop } from "../../../src/pipeline/campaign/stopping/stop-summary.ts";
import {
  callUntilOf,
  resumeAt,
  windowCloseAfter,
  windowIn,
} from "../../../src/pipeline/campaign/stopping/window-close.ts";

const S = { pending: ["queued", "ringing", "in-progress"], inFlight: ["ringing", "in-progress"] };
const WEEK = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;

/** An instant from a wall-clock time in a zone, computed by Intl (not by the code under test). */
function zoned(local: string, zone: string): number {
  const guess = Date.parse(`${local}Z`);
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: zone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(new Date(guess));
  const v = (t: string) => parts.find((p) => p.type === t)!.value;
  const asUtc = Date.parse(
    `${v("year")}-${v("month")}-${v("day")}T${v("hour")}:${v("minute")}:${v("second")}Z`,
  );
  return guess - (asUtc - guess);
}

describe("which contacts a stop takes out", () => {
  it("a call not begun: no record, no status, queued; ringing, talking or final ones keep theirs", () => {
    expect(notDialled(undefined, S)).toBe(true);
    expect(notDialled({ status: "" }, S)).toBe(true);
    expect(notDialled({ status: "queued" }, S)).toBe(true);
    for (const status of ["ringing", "in-progress", "completed", "busy", "weird"])
      expect(notDialled({ status }, S)).toBe(false);
    const records = [undefined, { status: "ringing" }, { status: "queued" }] as never[];
    expect(undialled(["a", "b", "c"], records, S)).toEqual(["a", "c"]);
  });

  it("a campaign with contacts taken out is over only when the rest is final and the service lists none of them", () => {
    // 10 contacts, 7 final, 3 taken out and stored queued; the service lists only the 7 (it honoured).
    expect(overWithWithdrawn({ contacts: 10, final: 7 }, 3, 3, 7)).toBe(true);
    // It still lists them (a fixed audience): it may dial them yet.
    expect(overWithWithdrawn({ contacts: 10, final: 7 }, 3, 3, 10)).toBe(false);
    // Another call still going.
    expect(overWithWithdrawn({ contacts: 10, final: 6 }, 3, 3, 6)).toBe(false);
    // Nothing taken out, or an audience of unknown size: the usual rule alone.
    expect(overWithWithdrawn({ contacts: 10, final: 7 }, 0, 0, 7)).toBe(false);
    expect(overWithWithdrawn({ contacts: 10, final: 7 }, 3, 3, undefined)).toBe(false);
    // Stopped before any poll saw a call: none listed, none stored.
    expect(overWithWithdrawn({ contacts: 0, final: 0 }, 5, 0, 0)).toBe(true);
  });
});

describe("when a started campaign stops, and when the rest resume", () => {
  const ny = { days: WEEK, from: "08:00", to: "21:00", timezone: "America/New_York" };

  it("the close of the window open at an instant, across the DST change (Intl's times)", () => {
    expect(windowCloseAfter(ny, zoned("2026-03-07T20:30:00", ny.timezone))).toBe(
      zoned("2026-03-07T21:00:00", ny.timezone),
    );
    // 8 March 2026: clocks go forward at 02:00 in New York; the close is 21:00 EDT.
    expect(windowCloseAfter(ny, zoned("2026-03-08T09:00:00", ny.timezone))).toBe(
      zoned("2026-03-08T21:00:00", ny.timezone),
    );
    expect(zoned("2026-03-08T21:00:00", ny.timezone) - zoned("2026-03-07T21:00:00", ny.timezone)).toBe(
      23 * 3_600_000,
    );
    // After the close: the next window's close.
    expect(windowCloseAfter(ny, zoned("2026-03-07T22:00:00", ny.timezone))).toBe(
      zoned("2026-03-08T21:00:00", ny.timezone),
    );
  });

  it("callUntil: the planner's when stored, else the window's close at the start, in the campaign's zone", () => {
    const start = { window: { ...ny, timezone: "callee", fallbackTimezone: "UTC" } };
    const scheduledAt = new Date(zoned("2026-11-20T10:00:00", "America/Chicago")).toISOString();
    expect(callUntilOf({ scheduledAt, callUntil: 42 }, start)).toBe(42);
    expect(callUntilOf({ scheduledAt, zone: "America/Chicago" }, start)).toBe(
      zoned("2026-11-20T21:00:00", "America/Chicago"),
    );
    expect(callUntilOf({ scheduledAt, zone: "America/Chicago" }, start, 600_000)).toBe(
      zoned("2026-11-20T20:50:00", "America/Chicago"),
    );
    expect(callUntilOf({ scheduledAt }, "asap")).toBeUndefined();
    expect(windowIn({ at: scheduledAt }, undefined)).toBeUndefined();
  });

  it("the rest resume at the next opening after the close, even when stopped inside the margin", () => {
    const weekdays = { ...ny, days: ["mon", "tue", "wed", "thu", "fri"] as const };
    // Friday 20:50 (a 10-minute margin): Monday 08:00.
    expect(resumeAt(weekdays, zoned("2026-11-20T20:50:00", ny.timezone))).toBe(
      zoned("2026-11-23T08:00:00", ny.timezone),
    );
    expect(resumeAt(weekdays, zoned("2026-11-20T21:30:00", ny.timezone))).toBe(
      zoned("2026-11-23T08:00:00", ny.timezone),
    );
  });

  it("says what a stop did", () => {
    const text = describeStop({
      reason: "window-closed",
      at: 0,
      reasons: ["window-closed"],
      withdrawn: 4,
      flagged: 0,
      calledAfter: 4,
      honoured: "no",
      ranPastWindow: true,
      handBack: true,
    });
    expect(text).toContain("its calling window closed");
    expect(text).toContain("4 contacts not yet called taken out");
    expect(text).toContain("did NOT honour it: 4 called after the delete");
    expect(text).toContain("RAN PAST ITS WINDOW");
  });
});
