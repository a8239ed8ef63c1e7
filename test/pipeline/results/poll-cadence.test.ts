import { describe, expect, it } from "vitest";
import { type Cadence, firstPollAt, nextPollAt } from "../../../src/pipeline/model/poll-cadence.ts";

const cadence: Cadence = { periodMs: 10_000, startGraceMs: 15_000, quietAfterMs: 30_000, ceilingMs: 60_000 };
const T = Date.parse("2026-11-23T12:00:00Z");
const polled = (over: Partial<Parameters<typeof nextPollAt>[0]> = {}) => ({
  tickMs: T,
  at: T + 300,
  scheduledAtMs: T - 3_600_000,
  lastChangeAt: T - 5_000,
  inFlight: false,
  ...over,
});

describe("poll cadence", () => {
  it("a campaign starting later is first polled shortly after its start; one already started, now", () => {
    expect(firstPollAt(new Date(T + 86_400_000).toISOString(), T)).toBe(T + 86_400_000 + 15_000);
    expect(firstPollAt(new Date(T - 1_000).toISOString(), T)).toBe(T);
    expect(firstPollAt("not a date", T)).toBe(T);
  });

  it("polled before its start (an older version's poll): next, shortly after the start", () => {
    expect(nextPollAt(polled({ scheduledAtMs: T + 3_600_000 }), cadence)).toBe(T + 3_600_000 + 15_000);
  });

  it("calls under way: the next tick, however long nothing changed", () => {
    expect(nextPollAt(polled({ inFlight: true, lastChangeAt: T - 3_600_000 }), cadence)).toBe(T + 10_000);
  });

  it("started a moment ago (asap): the next tick, not the start's grace again", () => {
    expect(nextPollAt(polled({ scheduledAtMs: T - 1_000, lastChangeAt: T - 1_000 }), cadence)).toBe(
      T + 10_000,
    );
  });

  it("a recent change: the next tick", () => {
    expect(nextPollAt(polled({ lastChangeAt: T - 29_000 }), cadence)).toBe(T + 10_000);
  });

  it("quiet: backs off with the silence, up to the ceiling; the start counts as a change", () => {
    expect(nextPollAt(polled({ lastChangeAt: T - 40_000 }), cadence)).toBe(T + 20_150);
    expect(nextPollAt(polled({ lastChangeAt: T - 100_000 }), cadence)).toBe(T + 50_150);
    expect(nextPollAt(polled({ lastChangeAt: T - 3_600_000 }), cadence)).toBe(T + 60_000);
    // Started 25 s ago after a day of waiting: not quiet yet.
    expect(nextPollAt(polled({ lastChangeAt: T - 86_400_000, scheduledAtMs: T - 25_000 }), cadence)).toBe(
      T + 10_000,
    );
  });

  it("quiet for an hour: 60 polls (the ceiling), not 360; before its start: none", () => {
    let at = T;
    let polls = 0;
    while (at < T + 3_600_000) {
      polls += 1;
      at = nextPollAt(polled({ tickMs: at, at: at + 100, lastChangeAt: T - 3_600_000 }), cadence);
    }
    expect(polls).toBe(60);
    expect(nextPollAt(polled({ scheduledAtMs: T + 7_200_000 }), cadence)).toBeGreaterThan(T + 3_600_000);
  });
});
