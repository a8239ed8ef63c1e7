/**
 * Calling windows: days of the week and local opening hours in an IANA time zone. Pure and
 * DST-correct: local times are converted with the zone's offset at that moment, a local time that
 * does not exist (the spring-forward gap) opens at the first instant after the gap, and one that
 * exists twice (fall back) at the earlier one.
 */

export const WEEKDAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export interface CallingWindow {
  days: readonly Weekday[];
  /** Local opening time, HH:MM (24 h). */
  from: string;
  /** Local closing time, HH:MM, after `from`. */
  to: string;
  timezone: string;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** True when `zone` is an IANA time zone this runtime knows. */
export function isTimeZone(zone: string): boolean {
  try {
    formatter(zone);
    return true;
  } catch {
    return false;
  }
}

/** The local wall-clock time of an instant, as if it were UTC (ms). */
export function wallClock(instant: number, zone: string): number {
  const parts: Record<string, number> = {};
  for (const p of formatter(zone).formatToParts(new Date(instant))) {
    if (p.type !== "literal") parts[p.type] = Number(p.value);
  }
  return Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
}

/** The first instant at which the local time in `zone` reads `wall` (or later, inside a gap). */
export function instantOf(wall: number, zone: string): number {
  const DAY = 86_400_000;
  const candidates = [...new Set([wall - offsetAt(wall - DAY, zone), wall - offsetAt(wall + DAY, zone)])];
  const exact = candidates.filter((t) => wallClock(t, zone) === wall).sort((a, b) => a - b);
  if (exact.length > 0) return exact[0]!;
  // A gap: find the transition, the first instant whose wall time is past `wall`.
  let low = Math.min(...candidates) - DAY;
  let high = Math.max(...candidates) + DAY;
  while (high - low > 1000) {
    const mid = Math.floor((low + high) / 2);
    if (wallClock(mid, zone) >= wall) high = mid;
    else low = mid;
  }
  return high - (high % 1000);
}

function offsetAt(instant: number, zone: string): number {
  const rounded = instant - (((instant % 1000) + 1000) % 1000);
  return wallClock(rounded, zone) - rounded;
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
