/** Wall-clock time in IANA time zones, with the runtime's own zone data. Pure. */

export const WEEKDAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"] as const;
export type Weekday = (typeof WEEKDAYS)[number];

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
