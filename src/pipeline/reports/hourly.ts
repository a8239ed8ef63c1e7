import { wallClock } from "../../lib/time-zone.ts";
import { type BucketUnit, bucketIndex, bucketStarts, bucketUnitOf } from "./buckets.ts";
import { rate } from "./figures.ts";
import type { HourBucket, LocalHour } from "./model.ts";

const HOUR = 3_600_000;

/** Where a zone's clock stands against UTC in one hour, cached: a zone's offset changes rarely. */
class Offsets {
  private readonly zones = new Map<string, Map<number, number>>();
  of(instant: number, zone: string): number {
    const hour = instant - (instant % HOUR);
    let byHour = this.zones.get(zone);
    if (!byHour) {
      byHour = new Map();
      this.zones.set(zone, byHour);
    }
    let offset = byHour.get(hour);
    if (offset === undefined) {
      offset = wallClock(hour, zone) - hour;
      if (byHour.size > 20_000) byHour.clear();
      byHour.set(hour, offset);
    }
    return offset;
  }
}

/**
 * Calls over the period in buckets fitted to its length (hours, days or months of the report's
 * zone: `buckets.ts`), and by the callee's local hour of day.
 */
export class HourlyCounts {
  readonly unit: BucketUnit;
  private readonly starts: number[];
  private readonly calls: Uint32Array;
  private readonly reached: Uint32Array;
  private readonly localCalls = new Uint32Array(24);
  private readonly localReached = new Uint32Array(24);
  private readonly offsets = new Offsets();

  constructor(
    from: number,
    private readonly to: number,
    private readonly zone: string,
  ) {
    this.unit = bucketUnitOf(from, to);
    this.starts = bucketStarts(from, to, zone, this.unit);
    this.calls = new Uint32Array(Math.max(1, this.starts.length));
    this.reached = new Uint32Array(this.calls.length);
  }

  add(at: number, calleeZone: string, reached: boolean): void {
    if (at >= this.to) return;
    const i = bucketIndex(this.starts, at);
    if (i < 0) return;
    this.calls[i]! += 1;
    const local = new Date(at + this.offsets.of(at, calleeZone)).getUTCHours();
    this.localCalls[local]! += 1;
    if (reached) {
      this.reached[i]! += 1;
      this.localReached[local]! += 1;
    }
  }

  /** One bucket per hour, day or month: its start as the report zone's wall clock (a DST fall-back repeats an hour). */
  byHour(): HourBucket[] {
    return this.starts.map((at, i) => ({
      hour: new Date(at + this.offsets.of(at, this.zone)).toISOString().slice(0, 16),
      calls: this.calls[i]!,
      reached: this.reached[i]!,
    }));
  }

  byLocalHour(): LocalHour[] {
    return Array.from(this.localCalls, (calls, hour) => ({
      hour,
      calls,
      reached: this.localReached[hour]!,
      reachRate: rate(this.localReached[hour]!, calls),
    }));
  }
}
