import { describe, expect, it } from "vitest";
import { calleeZone, sameTimeZone } from "../../../src/pipeline/campaign/callee-zone.ts";

describe("the callee's time zone, from their number", () => {
  it.each([
    ["+12125550101", "America/New_York"],
    ["+13105550101", "America/Los_Angeles"],
    ["+13125550101", "America/Chicago"],
    ["+442079460101", "Europe/London"],
    ["+81355550101", "Asia/Tokyo"],
    ["+61291234567", "Australia/Sydney"],
  ])("%s is in %s", async (phone, zone) => {
    expect(await calleeZone(phone, "UTC")).toBe(zone);
  });

  it("zones that keep the same time count as one: a UK mobile is called on London hours", async () => {
    expect(await calleeZone("+447911123456", "UTC")).toBe("Europe/London");
    expect(sameTimeZone(["Europe/Jersey", "Europe/London", "Europe/Guernsey"])).toBe("Europe/London");
  });

  it("zones that keep different times, or a number with none, take the fallback", async () => {
    expect(await calleeZone("+18005550101", "America/Denver")).toBe("America/Denver"); // toll-free: all of NANP
    expect(sameTimeZone(["Europe/London", "America/New_York"])).toBeUndefined();
    // Same offset in winter, but summer time starts on other dates: not the same hours.
    expect(sameTimeZone(["Europe/Lisbon", "Africa/Casablanca"], Date.UTC(2026, 0, 1))).toBeUndefined();
  });
});
