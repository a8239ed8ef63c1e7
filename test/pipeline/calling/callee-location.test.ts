import { describe, expect, it } from "vitest";
import { RULE_SET_IDS, RULE_SETS } from "../../../src/calling-rules/index.ts";
import { usStateCode } from "../../../src/calling-rules/regions/us-states.ts";
import { CALLING_RULE_SETS } from "../../../src/config/job-definition.ts";
import { locationColumns, locationOf } from "../../../src/ingest/location-columns.ts";
import { locateCallee, zoneFromCell } from "../../../src/pipeline/calling/callee-location.ts";

describe("where the callee is", () => {
  it("finds the usual CRM location headers, an explicit one first", () => {
    expect(locationColumns(["Name", "Phone", "Time Zone", "Mailing State"])).toEqual({
      timezone: 2,
      region: 3,
    });
    expect(locationColumns(["Phone", "Address: Region"])).toEqual({ region: 1 });
    expect(locationColumns(["Phone", "Province", "Timezone"])).toEqual({ timezone: 2, region: 1 });
    expect(locationColumns(["Phone", "State", "Home State"], { region: "Home State" })).toEqual({
      region: 2,
    });
    expect(locationOf(["x", " FL ", ""], { region: 1, timezone: 2 })).toEqual({ region: "FL" });
  });

  it("reads zone cells and state names as files and the geocoder write them", () => {
    expect(zoneFromCell("America/Denver")).toBe("America/Denver");
    expect(zoneFromCell("Eastern")).toBe("America/New_York");
    expect(zoneFromCell("PST")).toBe("America/Los_Angeles");
    expect(zoneFromCell("Central Time (US & Canada)")).toBe("America/Chicago");
    expect(zoneFromCell("Mars")).toBeUndefined();
    expect(usStateCode("Florida")).toBe("FL");
    expect(usStateCode("Washington State")).toBe("WA");
    expect(usStateCode("San Francisco, CA")).toBe("CA");
    expect(usStateCode("Narnia")).toBeUndefined();
  });

  it("the number's zones, and those of a zone column and of a state column (issue 43: a column never drops the number's)", async () => {
    expect(await locateCallee("+13055550101")).toEqual({
      country: "US",
      region: "FL",
      zones: ["America/New_York"],
      from: "number",
    });
    expect(await locateCallee("+14155550103", { timezone: "Eastern" })).toMatchObject({
      zones: ["America/Los_Angeles", "America/New_York"],
      from: "zone column",
    });
    expect(await locateCallee("+12125550107", { region: "Florida" })).toEqual({
      country: "US",
      region: "FL",
      zones: ["America/Chicago", "America/New_York"],
      from: "region column",
    });
  });

  it("a US toll-free number may be in any of the 50 states' clocks; a number with no region has none", async () => {
    const tollFree = await locateCallee("+18005550106");
    expect(tollFree.zones).toContain("Pacific/Honolulu");
    expect(tollFree.zones).toContain("America/New_York");
    expect(tollFree.zones).not.toContain("Pacific/Guam");
    expect(tollFree.region).toBeUndefined();
    expect(await locateCallee("+80012345678")).toEqual({ zones: [], from: "none" });
  });

  it("UK numbers in London, Jersey, Guernsey or Man keep one clock: one zone", async () => {
    expect((await locateCallee("+447700900123")).zones).toEqual(["Europe/London"]);
  });

  it("the job schema names exactly the rule sets there are", () => {
    expect([...CALLING_RULE_SETS].sort()).toEqual([...RULE_SET_IDS].sort());
    expect(Object.keys(RULE_SETS).sort()).toEqual(RULE_SET_IDS.filter((id) => id !== "custom").sort());
  });
});
