import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { plannedStart } from "../../../src/pipeline/calling/planned-start.ts";

const ny = (day: string, hhmm: string) =>
  DateTime.fromISO(`${day}T${hhmm}`, { zone: "America/New_York" }).toMillis();
const HOURS = [{ timezone: "America/New_York", from: "08:00", to: "20:00" }];
const MARGIN = 15 * 60_000;

describe("plannedStart", () => {
  const planned = {
    scheduledAt: ny("2026-11-23", "19:00"),
    callUntil: ny("2026-11-23", "19:45"),
    expectedEndAt: ny("2026-11-23", "19:30"),
    hours: HOURS,
  };

  it("starts as planned, never before now, while its window is open", () => {
    expect(plannedStart(planned, ny("2026-11-23", "18:00"), MARGIN)).toEqual({
      kind: "start",
      scheduledAt: planned.scheduledAt,
      callUntil: planned.callUntil,
      expectedEndAt: planned.expectedEndAt,
    });
    expect(plannedStart(planned, ny("2026-11-23", "19:10"), MARGIN)).toMatchObject({
      scheduledAt: ny("2026-11-23", "19:10"),
      expectedEndAt: ny("2026-11-23", "19:40"),
    });
  });

  it("created after its window closed (a daemon down overnight): at the next opening, never in the night", () => {
    expect(plannedStart(planned, ny("2026-11-23", "23:00"), MARGIN)).toEqual({
      kind: "start",
      scheduledAt: ny("2026-11-24", "08:00"),
      callUntil: ny("2026-11-24", "19:45"),
      expectedEndAt: ny("2026-11-24", "08:30"),
    });
  });

  it("a follow-up (hours only) starts at the next opening; nothing at or after callBy", () => {
    expect(plannedStart({ hours: HOURS }, ny("2026-11-23", "12:00"), MARGIN)).toMatchObject({
      kind: "start",
      scheduledAt: ny("2026-11-23", "12:00"),
      callUntil: ny("2026-11-23", "19:45"),
    });
    expect(
      plannedStart({ hours: HOURS, callBy: ny("2026-11-24", "07:00") }, ny("2026-11-23", "21:00"), MARGIN),
    ).toEqual({
      kind: "too-late",
      reason: "call_by_passed",
    });
    expect(plannedStart({}, 0, MARGIN)).toBeUndefined();
  });
});
