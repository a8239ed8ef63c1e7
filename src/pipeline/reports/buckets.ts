import { instantOf, wallClock } from "../../lib/time-zone.ts";

/** How long a chart's bar is: fitted to the period, so a report's work never grows with its range. */
export type BucketUnit = "hour" | "day" | "month";

const HOUR = 3_600_000;
const DAY = 86_400_000;

/** Hours up to 3 days (72 bars), days up to 92 (a quarter), months beyond (13 at the ceiling). */
export function bucketUnitOf(from: number, to: number): BucketUnit {
  const length = to - from;
  return length <= 3 * DAY ? "hour" : length <= 92 * DAY ? "day" : "month";
}

/** The wall-clock start (as if UTC) of the day or month holding `wall`. */
function wallStart(wall: number, unit: "day" | "month"): number {
  const d = new Date(wall - (wall % DAY));
  if (unit === "month") d.setUTCDate(1);
  return d.getTime();
}

function nextWall(wall: number, unit: "day" | "month"): number {
  const d = new Date(wall);
  if (unit === "day") d.setUTCDate(d.getUTCDate() + 1);
  else d.setUTCMonth(d.getUTCMonth() + 1);
  return d.getTime();
}

/**
 * The instants at which the buckets covering [from, to) begin, in `zone`'s calendar: whole hours,
 * local midnights (23 or 25 hours apart across a DST change) or the first of each month.
 */
export function bucketStarts(from: number, to: number, zone: string, unit: BucketUnit): number[] {
  const starts: number[] = [];
  if (unit === "hour") {
    for (let t = from - (from % HOUR); t < to; t += HOUR) starts.push(t);
    return starts;
  }
  for (let wall = wallStart(wallClock(from, zone), unit); ; wall = nextWall(wall, unit)) {
    const t = instantOf(wall, zone);
    if (t >= to) break;
    starts.push(t);
  }
  return starts;
}

/** The index of the bucket holding `at` (starts sorted), or -1 before the first. */
export function bucketIndex(starts: readonly number[], at: number): number {
  let low = 0;
  let high = starts.length - 1;
  if (high < 0 || at < starts[0]!) return -1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (starts[mid]! <= at) low = mid;
    else high = mid - 1;
  }
  return low;
}
