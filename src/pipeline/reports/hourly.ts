import { wallClock } from "../../lib/time-zone.ts";
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

/** Calls by hour of the period (in the report's zone) and by the callee's local hour of day. */
export class HourlyCounts {
  private readonly calls: Uint32Array;
  private readonly reached: Uint32Array;
  private readonly localCalls = new Uint32Array(24);
  private readonly localReached = new Uint32Array(24);
  private readonly offsets = new Offsets();
  private readonly start: number;

  constructor(
    from: number,
    private readonly to: number,
    private readonly zone: string,
  ) {
    this.start = from - (from % HOUR);
    const hours = Math.max(1, Math.ceil((to - this.start) / HOUR));
    this.calls = new Uint32Array(hours);
    this.reached = new Uint32Array(hours);
  }

  add(at: number, calleeZone: string, reached: boolean): void {
    const i = Math.floor((at - this.start) / HOUR);
    if (i < 0 || i >= this.calls.length) return;
    this.calls[i]! += 1;
    const local = new Date(at + this.offsets.of(at, calleeZone)).getUTCHours();
    this.localCalls[local]! += 1;
    if (reached) {
      this.reached[i]! += 1;
      this.localReached[local]! += 1;
    }
  }

  byHour(): HourBucket[] {
    return Array.from(this.calls, (calls, i) => {
      const at = this.start + i * HOUR;
      return {
        hour: new Date(at + this.offsets.of(at, this.zone)).toISOString().slice(0, 16),
        calls,
        reached: this.reached[i]!,
      };
    }).filter((_, i) => this.start + i * HOUR < this.to);
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
