/**
 * Simulated time: runs `timeScale` times faster than the real clock from the moment it is made,
 * and can be moved forward by hand (tests).
 */
export interface SimClock {
  /** Simulated epoch milliseconds. */
  now(): number;
  /**
   * When a start asked for at real time `realMs` comes, in simulated time: the wait keeps real time
   * (the speed-up shortens calls, never the wait before a start, so a client's check before it can
   * run). A jump by `advance` counts as time passed: at scale 1 this is `max(now, realMs)`.
   */
  atReal(realMs: number): number;
  /** Moves simulated time forward. */
  advance(ms: number): void;
  readonly timeScale: number;
}

export function createSimClock(timeScale = 1, realNow: () => number = Date.now): SimClock {
  if (!(timeScale > 0)) throw new RangeError(`time scale must be positive, got ${timeScale}`);
  const origin = realNow();
  let offset = 0;
  return {
    timeScale,
    now: () => origin + (realNow() - origin) * timeScale + offset,
    // One reading of the real clock: two could straddle a millisecond and put a start 1 ms late.
    atReal: (realMs) => {
      const real = realNow();
      return origin + (real - origin) * timeScale + offset + Math.max(0, realMs - real - offset) * timeScale;
    },
    advance: (ms) => {
      offset += ms;
    },
  };
}
