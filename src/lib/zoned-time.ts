/**
 * Times as a person reads them, always with their zone: "2026-11-26 09:00 EST" (the zone's
 * abbreviation, or its offset where it has none, "GMT+1"). ISO instants are for --json only. Pure.
 */
const formats = new Map<string, Intl.DateTimeFormat>();

function format(zone: string): Intl.DateTimeFormat {
  let f = formats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
      timeZoneName: "short",
    });
    formats.set(zone, f);
  }
  return f;
}

type Instant = number | string | Date;

function parts(at: Instant, zone: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of format(zone).formatToParts(new Date(at))) out[p.type] = p.value;
  return out;
}

/** "2026-11-26 09:00 EST": the wall clock in `zone`, and the zone. */
export function zonedTime(at: Instant, zone: string): string {
  const p = parts(at, zone);
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute} ${p.timeZoneName}`;
}

/** "2026-11-26 09:00": the wall clock in `zone`, for where the zone is given beside it. */
export function zonedWallClock(at: Instant, zone: string): string {
  const p = parts(at, zone);
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`;
}

/** The zone of the machine vcw runs on (TZ, else the system's): where a command's reader most likely is. */
export const localZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** "2026-11-26 09:00 EST": a time in the machine's own zone, for a command's output. */
export const localTime = (at: Instant): string => zonedTime(at, localZone());

/** "2026-11-26": the calendar day in `zone`. */
export function zonedDate(at: Instant, zone: string): string {
  const p = parts(at, zone);
  return `${p.year}-${p.month}-${p.day}`;
}

/** "09:00": the clock in `zone`, for a time whose day and zone are said beside it. */
export function zonedClock(at: Instant, zone: string): string {
  const p = parts(at, zone);
  return `${p.hour}:${p.minute}`;
}

/** A time in a file name: UTC with a Z, "20261126T1400Z" (seconds only when it has some). */
export const fileStamp = (at: Instant) =>
  new Date(at)
    .toISOString()
    .replace(/\.\d+Z$/, "Z")
    .replace(/[-:]/g, "")
    .replace(/(T\d{4})00Z$/, "$1Z");
