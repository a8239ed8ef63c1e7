import { instantOf, WEEKDAYS, type Weekday, wallClock } from "../../lib/time-zone.ts";

/**
 * Calling windows: days of the week and local opening hours in an IANA time zone. Pure and
 * DST-correct: local times are converted with the zone's offset at that moment, a local time that
 * does not exist (the spring-forward gap) opens at the first instant after the gap, and one that
 * exists twice (fall back) at the earlier one.
 */

export interface CallingWindow {
  days: readonly Weekday[];
  /** Local opening time, HH:MM (24 h). */
  from: string;
  /** Local closing time, HH:MM, after `from`. */
  to: string;
  timezone: string;
}

const minutesOf = (hhmm: string) => {
  const [h, m] = hhmm.split(":").map(Number);
  return h! * 60 + m!;
};

/**
 * When calls may start at or after `now`: `now` itself inside an open window, else the next
 * opening. Looks up to two weeks ahead; undefined if the window never opens (no days).
 */
export function nextOpening(window: CallingWindow, now: number): number | undefined {
  const wallNow = wallClock(now, window.timezone);
  const today = wallNow - (wallNow % 86_400_000);
  for (let d = 0; d < 15; d++) {
    const day = today + d * 86_400_000;
    const weekday = WEEKDAYS[new Date(day).getUTCDay()]!;
    if (!window.days.includes(weekday)) continue;
    const opens = instantOf(day + minutesOf(window.from) * 60_000, window.timezone);
    const closes = instantOf(day + minutesOf(window.to) * 60_000, window.timezone);
    if (now < opens) return opens;
    if (now < closes) return now;
  }
  return undefined;
}
