import type { Weekday } from "../../lib/time-zone.ts";
import { constraintIntervals, type Interval } from "../calling/calling-hours.ts";

/**
 * Calling windows: days of the week and local opening hours in an IANA time zone. Pure and
 * DST-correct, the same instants as the calling rules' (calling/calling-hours.ts): an instant is
 * inside when the zone's clock then reads a time inside the window; a local time that does not
 * exist (the spring-forward gap) opens at the first instant after the gap, and a window in the
 * repeated hour of a fall-back day opens at its first occurrence and is shut between the two.
 */

export interface CallingWindow {
  days: readonly Weekday[];
  /** Local opening time, HH:MM (24 h). */
  from: string;
  /** Local closing time, HH:MM, after `from`. */
  to: string;
  timezone: string;
}

const LOOK_AHEAD = 15 * 86_400_000;

/** The span of the window open at `now`, or of the next one, within two weeks; undefined if none. */
export function openingAt(window: CallingWindow, now: number): Interval | undefined {
  return constraintIntervals(window, now, now + LOOK_AHEAD)[0];
}

/**
 * When calls may start at or after `now`: `now` itself inside an open window, else the next
 * opening. Looks up to two weeks ahead; undefined if the window never opens (no days).
 */
export function nextOpening(window: CallingWindow, now: number): number | undefined {
  return openingAt(window, now)?.[0];
}
