import { describe, expect, it } from "vitest";
import {
  allowedBetween,
  averageLimit,
  checkRateSchedule,
  limitAt,
  parseRateSchedule,
} from "../../src/simulator/rate-schedule.ts";

const HALVED = [
  { atSec: 0, perSecond: 200 },
  { atSec: 30, perSecond: 100 },
  { atSec: 60, perSecond: 200 },
];

describe("rate-limit schedule", () => {
  it("reads seconds:requests per second, comma-separated", () => {
    expect(parseRateSchedule("0:200,30:100,60:200")).toEqual(HALVED);
    expect(parseRateSchedule(" 0:0.5 , 1.5:20 ")).toEqual([
      { atSec: 0, perSecond: 0.5 },
      { atSec: 1.5, perSecond: 20 },
    ]);
  });

  it.each([
    ["", 'entry 1 "": expected SECONDS:PER_SECOND'],
    ["0:200,30", 'entry 2 "30": expected SECONDS:PER_SECOND'],
    ["0:200,30:100:5", 'entry 2 "30:100:5": expected SECONDS:PER_SECOND'],
    ["10:200", 'entry 1 "10:200": the first entry must be at second 0'],
    ["0:200,30:x", 'entry 2 "30:x": requests per second must be a number > 0'],
    ["0:200,30:0", 'entry 2 "30:0": requests per second must be a number > 0'],
    ["0:200,30:-5", 'entry 2 "30:-5": requests per second must be a number > 0'],
    ["0:200,30:100,30:50", 'entry 3 "30:50": seconds must increase from entry to entry'],
    ["0:200,:100", 'entry 2 ":100": seconds must be a number >= 0'],
  ])("refuses %j naming the bad entry", (text, message) => {
    expect(() => parseRateSchedule(text)).toThrow(`rate-limit schedule ${message}`);
  });

  it("checks a schedule given as data the same way", () => {
    expect(checkRateSchedule(HALVED)).toBe(HALVED);
    expect(() => checkRateSchedule([])).toThrow("at least one entry");
    expect(() => checkRateSchedule([{ atSec: 0, perSecond: Number.NaN }])).toThrow(
      'entry 1 "0:NaN": requests per second must be a number > 0',
    );
  });

  it("the limit in force: each step from its second, the last for good", () => {
    expect([-1, 0, 29.9, 30, 59, 60, 1e6].map((s) => limitAt(HALVED, s))).toEqual([
      200, 200, 200, 100, 100, 200, 200,
    ]);
  });

  it("averages the limit over an interval", () => {
    expect(allowedBetween(HALVED, 0, 90)).toBe(30 * 200 + 30 * 100 + 30 * 200);
    expect(averageLimit(HALVED, 0, 90)).toBeCloseTo(500 / 3, 9);
    expect(averageLimit(HALVED, 20, 40)).toBe(150);
    expect(averageLimit(HALVED, 30, 60)).toBe(100);
    expect(averageLimit(HALVED, 45, 75)).toBe(150);
    expect(averageLimit(HALVED, 100, 200)).toBe(200);
    expect(averageLimit(HALVED, 30, 30)).toBe(100);
    expect(allowedBetween(HALVED, 40, 10)).toBe(0);
    expect(() => averageLimit(HALVED, 40, 10)).toThrow(RangeError);
  });
});
