import { describe, expect, it } from "vitest";
import { LatencyWatch } from "../../src/limiter/latency-watch.ts";

describe("LatencyWatch", () => {
  it("stays quiet at a steady latency, speaks up when it climbs well above its floor", () => {
    const watch = new LatencyWatch(4);
    for (let i = 0; i < 50; i++) expect(watch.add(25 + (i % 5))).toBe(false);
    let signalled = false;
    for (let i = 0; i < 40 && !signalled; i++) signalled = watch.add(400);
    expect(signalled).toBe(true);
  });

  it("ignores a rise that stays within the slack, and is off with factor 0", () => {
    const small = new LatencyWatch(4, 50);
    for (let i = 0; i < 30; i++) small.add(2);
    for (let i = 0; i < 50; i++) expect(small.add(30)).toBe(false);
    const off = new LatencyWatch(0);
    for (let i = 0; i < 30; i++) off.add(10);
    expect(off.add(10_000)).toBe(false);
  });
});
