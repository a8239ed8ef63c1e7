import { describe, expect, it } from "vitest";
import { RULE_SETS } from "../../../src/calling-rules/index.ts";
import { locationColumns } from "../../../src/ingest/location-columns.ts";
import { locateCallee } from "../../../src/pipeline/calling/callee-location.ts";
import { effectiveRules } from "../../../src/pipeline/calling/effective-rules.ts";
import { zonesFromCell } from "../../../src/pipeline/calling/zone-cells.ts";

/** Issue 31 items 1, 4-7: where a callee may be, at the edges of the data and of the file's cells. */
const job = { fallbackTimezone: "UTC", caps: [] };
const clocks = (zones: string[]) =>
  [...new Set(zones.map((z) => new Date("2026-07-01T12:00:00Z").toLocaleString("en-US", { timeZone: z })))]
    .length;

describe("where the callee is, at the edges", () => {
  it("Alaska: ranges libphonenumber places in America/Juneau are Alaska's clock, not the fallback", () => {
    const where = locateCallee("+19073434311");
    expect(where.zones).toEqual(["America/Juneau"]);
    expect(where.region).toBe("AK");
    expect(where.from).toBe("number");
  });

  it("territories: Puerto Rico, Guam, USVI, American Samoa, Northern Marianas get US federal hours in their zone", () => {
    const cases = [
      ["+17877220000", "PR", "America/Puerto_Rico"],
      ["+19397220000", "PR", "America/Puerto_Rico"],
      ["+16714770000", "GU", "Pacific/Guam"],
      ["+13407740000", "VI", "America/Puerto_Rico"],
      ["+16846330000", "AS", "Pacific/Pago_Pago"],
      ["+16702340000", "MP", "Pacific/Saipan"],
    ] as const;
    for (const [phone, region, zone] of cases) {
      const where = locateCallee(phone);
      expect(where.region, phone).toBe(region);
      expect(clocks([...where.zones, zone]), phone).toBe(1);
      const rules = effectiveRules(where, [RULE_SETS.us!], job);
      expect(rules.applied, phone).toEqual(["us"]);
      expect(
        rules.constraints.map((c) => [c.from, c.to]),
        phone,
      ).toEqual([["08:00", "21:00"]]);
    }
  });

  it("a state cell written as people write it is read; an unreadable one keeps the number's own state", () => {
    for (const cell of ["Fla.", "FLA", "Florida, USA", "florida", "FL."])
      expect(locateCallee("+12125550107", { region: cell }).region, cell).toBe("FL");
    expect(locateCallee("+12125550107", { region: "Okla." }).region).toBe("OK");
    expect(locateCallee("+12125550107", { region: "Wash." }).region).toBe("WA");
    const unreadable = locateCallee("+13055550101", { region: "Dade" });
    expect(unreadable.region).toBe("FL");
    expect(unreadable.zones).toEqual(["America/New_York"]);
    // State "Guam" or "PR" on a mainland number: the territory's zone, and the number's (issue 43).
    expect(locateCallee("+12125550107", { region: "Guam" })).toMatchObject({
      region: "GU",
      zones: ["America/New_York", "Pacific/Guam"],
    });
    expect(locateCallee("+12125550107", { region: "PR" })).toMatchObject({
      region: "PR",
      zones: ["America/New_York", "America/Puerto_Rico"],
    });
  });

  it('"County" is no region column', () => {
    expect(locationColumns(["Phone", "County"])).toEqual({});
  });

  it("zone cells: ICU abbreviations with other meanings are never taken as one zone", () => {
    const ny = "+12125550107";
    expect(locateCallee(ny, { timezone: "AST" }).zones).toContain("America/Puerto_Rico");
    expect(locateCallee(ny, { timezone: "BST" }).zones).toContain("Europe/London");
    expect(locateCallee("+447700900123", { timezone: "BST" }).zones).toEqual(["Europe/London"]);
    expect(locateCallee(ny, { timezone: "IST" }).zones).not.toEqual(["Asia/Kolkata"]);
    expect(locateCallee(ny, { timezone: "SST" }).zones).toContain("Pacific/Pago_Pago");
    for (const cell of ["AST", "BST", "IST", "SST"])
      expect(locateCallee(ny, { timezone: cell }).zones, cell).not.toContain("Pacific/Guadalcanal");
    // An unknown cell is unreadable: the number says where.
    expect(locateCallee(ny, { timezone: "XYZT" })).toMatchObject({
      zones: ["America/New_York"],
      from: "number",
    });
  });

  it('"Mountain" or "MST" in Arizona includes Phoenix (no DST); a zone cell that contradicts the state gives both', () => {
    for (const cell of ["Mountain", "MST"])
      expect(locateCallee("+16025550100", { region: "AZ", timezone: cell }).zones, cell).toContain(
        "America/Phoenix",
      );
    const both = locateCallee("+12125550107", { region: "NY", timezone: "Pacific" }).zones;
    expect(both).toEqual(["America/Los_Angeles", "America/New_York"]);
  });

  it("split-zone states: where the data knows only the state, every zone of the area code is a candidate", () => {
    // Exchanges the data places nowhere but in the state (555): the area code's zones.
    expect(locateCallee("+18505550100").zones).toEqual(["America/Chicago", "America/New_York"]);
    expect(locateCallee("+18125550100").zones).toEqual(["America/Chicago", "America/New_York"]);
    expect(locateCallee("+12705550100").zones).toEqual(["America/Chicago", "America/New_York"]);
    expect(locateCallee("+16055550100").zones).toEqual(["America/Chicago", "America/Denver"]);
    // 448 overlays 850: the data knows only "Florida", so Florida's zones.
    expect(locateCallee("+14485550100").zones).toEqual(["America/Chicago", "America/New_York"]);
    // Where the data knows the place, its zone stands: Tallahassee is Eastern, Miami's 305 too.
    expect(locateCallee("+18502220100").zones).toEqual(["America/New_York"]);
    expect(locateCallee("+13055550101").zones).toEqual(["America/New_York"]);
  });

  it("toll-free: every state's rules, not only the federal hours (Florida's 20:00 in New York)", () => {
    const where = locateCallee("+18005550106");
    const rules = effectiveRules(where, [RULE_SETS.us!], job);
    expect(rules.applied).toEqual(expect.arrayContaining(["us:FL", "us:OK", "us:WA"]));
    expect(rules.constraints).toContainEqual({
      timezone: "America/New_York",
      from: "08:00",
      to: "20:00",
      days: undefined,
    });
  });

  it("the number's own state applies too when the file places the callee elsewhere (Florida's presumption)", () => {
    const where = locateCallee("+13055550101", { region: "GA" });
    const rules = effectiveRules(where, [RULE_SETS.us!], job, ["FL"]);
    expect(rules.applied).toEqual(["us:FL"]);
  });
});

describe("a zone cell that names a property of every object", () => {
  it("reads as no zone, never a crash (constructor, toString, __proto__, valueOf)", () => {
    for (const cell of ["constructor", "toString", "__proto__", "valueOf", "hasOwnProperty"])
      expect(zonesFromCell(cell), cell).toEqual([]);
    expect(zonesFromCell("Pacific Time")).toContain("America/Los_Angeles");
  });
});
