import pino from "pino";
import { describe, expect, it } from "vitest";
import { behindLogger, isBehind, type TickReport } from "../../src/queue/poll-tick.ts";

const tick = (behind: boolean, lagMs = 0): TickReport => ({
  due: 1,
  lagMs,
  waiting: 0,
  stillQueued: 0,
  behind,
  enqueueMs: 1,
});

function capture() {
  const lines: { level: number; msg: string }[] = [];
  const logger = pino({ level: "info" }, { write: (l: string) => void lines.push(JSON.parse(l)) });
  return { lines, logger };
}

describe("a poll tick behind its schedule", () => {
  it("one tick of slack: a campaign one period late is a late timer, two periods or earlier polls waiting is behind", () => {
    // The demo's schedule ticks every second; a busy machine fires a tick a second late.
    expect(isBehind(1_001, 1_000, false)).toBe(false);
    expect(isBehind(1_999, 1_000, false)).toBe(false);
    expect(isBehind(2_000, 1_000, false)).toBe(true);
    expect(isBehind(0, 1_000, true)).toBe(true);
  });

  it("warns from the second tick behind in a row, then once a minute, and says when it caught up", () => {
    const { lines, logger } = capture();
    const log = behindLogger(logger, "j");
    log(tick(true, 2_000), 1_000); // a hiccup
    log(tick(false), 2_000);
    expect(lines.filter((l) => l.level >= 30)).toEqual([]); // neither a warning nor a "caught up"
    log(tick(true, 2_000), 3_000);
    log(tick(true, 3_000), 4_000);
    log(tick(true, 4_000), 5_000);
    expect(lines.filter((l) => l.level === 40)).toHaveLength(1);
    expect(lines.find((l) => l.level === 40)?.msg).toMatch(/polls of job j are behind their schedule/);
    log(tick(true, 4_000), 64_000);
    expect(lines.filter((l) => l.level === 40)).toHaveLength(2);
    log(tick(false), 65_000);
    expect(lines.at(-1)?.msg).toBe("polls of job j caught up");
    log(tick(true, 2_000), 66_000);
    log(tick(true, 2_000), 67_000); // a new episode warns at once, whatever the minute
    expect(lines.filter((l) => l.level === 40)).toHaveLength(3);
  });
});
