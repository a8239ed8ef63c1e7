/**
 * Simulated time: runs `timeScale` times faster than the real clock from the moment it is made,
 * and can be moved forward by hand (tests).
 */
export interface SimClock {
  /** Simulated epoch milliseconds. */
  now(): number;
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
    advance: (ms) => {
      offset += ms;
    },
  };
}
