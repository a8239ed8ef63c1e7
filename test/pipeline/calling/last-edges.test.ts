import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { JobDefinition } from "../../../src/config/job-definition.ts";
import { locateCallee } from "../../../src/pipeline/calling/callee-location.ts";
import { capsFor } from "../../../src/pipeline/calling/plan-settings.ts";
import { previewUsRows } from "../../support/calling-preview.ts";

/**
 * Issue 43 item 5: the callee may be where their number is or where any column says, so a call
 * must be legal in both; Canadian and other North American numbers included. Each file is planned
 * as `vcw preview` plans it (the import's reader, the location columns, the one planner).
 */
const MIAMI = "America/New_York";
const VANCOUVER = "America/Vancouver";
/** BC's clock before its 2026 law (zone data older than tz 2026b), and after it: zones no release changed. */
const PST_PDT = "America/Los_Angeles";
const BC_NOW = "Etc/GMT+7";
/** A Tuesday in winter, 12:00 in Miami: every case opens today. */
const AT = Date.parse("2027-01-12T17:00:00Z");

/** Rows (phone, state cell, zone cell) previewed for a job under the `us` rules. */
const preview = (
  rows: readonly (readonly [string, string, string])[],
  window?: readonly [string, string],
  at = AT,
) =>
  previewUsRows(
    rows.map(([phone, region, timezone]) => ({ phone, region, timezone })),
    window,
    at,
  );

/** The local time at an ISO instant in a zone: "20:00". */
const local = (iso: string, zone: string) => DateTime.fromISO(iso, { zone }).toFormat("HH:mm");

describe("calling hours at the last edges (issue 43)", () => {
  it('a Florida number (305) whose zone column says "Pacific Time" stops at 20:00 in Miami, not in Los Angeles', async () => {
    const report = await preview([["+13055550101", "", "Pacific Time"]]);
    expect(report.campaigns).toHaveLength(1);
    const [c] = report.campaigns;
    // Before: grouped under Los Angeles with Florida's rules, called until 03:45Z (22:45 in Miami).
    expect(c!.callUntil).toBe("2027-01-13T00:45:00.000Z");
    expect(local(c!.callUntil, MIAMI)).toBe("19:45");
    expect(c!.zones).toEqual(["America/Los_Angeles", MIAMI]);
    expect(local(c!.scheduledAt, "America/Los_Angeles") >= "08:00").toBe(true);
  });

  it('a Florida number with columns "CT, FL" (the panhandle is Central) stops at 20:00 in Miami too', async () => {
    const report = await preview([["+13055550101", "FL", "CT"]]);
    const [c] = report.campaigns;
    // Before: the number's own zone was dropped, called until 01:45Z (20:45 in Miami).
    expect(c!.callUntil).toBe("2027-01-13T00:45:00.000Z");
    expect(c!.zones).toEqual(["America/Chicago", MIAMI]);
    expect(c!.rules).toEqual(["us:FL"]);
  });

  it("a Vancouver number (+1 604) on a callee window 08:00-21:00 starts at 08:00 and stops by 21:00 by either reading of BC's clock", async () => {
    // BC keeps -07 all year since its 2026 law (tz 2026b and later); older zone data, which the
    // runtime may have, says PST (-08) in winter: the calls must fit both. A Mountain column too.
    for (const cell of ["", "Mountain", "America/Denver"]) {
      const at = Date.parse("2027-01-12T12:00:00Z");
      const [c] = (await preview([["+16046830000", "", cell]], ["08:00", "21:00"], at)).campaigns;
      // Before: 15:00Z, 07:00 in Vancouver by PST (08:00 by -07, or in Denver, only).
      expect(c!.scheduledAt, cell).toBe("2027-01-12T16:00:00.000Z");
      expect(local(c!.scheduledAt, PST_PDT), cell).toBe("08:00");
      expect(local(c!.callUntil, BC_NOW), cell).toBe("20:45");
      if (cell === "") expect(c!.zones[0]).toBe(VANCOUVER);
    }
  });

  it("a Canadian number no rule set of the job covers: not called in an asap job (no_rule_set), inside its window in a callee-window job", async () => {
    const rows = [
      ["+16046830000", "", ""],
      ["+18765550100", "", ""],
      ["+13055550101", "", ""],
    ] as const;
    const asap = await preview(rows);
    expect(asap.skipped).toEqual({ no_rule_set: 2 });
    expect(asap.campaigns.flatMap((c) => c.phones)).toEqual(["+13055550101"]);
    const windowed = await preview(rows, ["08:00", "21:00"]);
    expect(windowed.skipped).toEqual({});
    const vancouver = windowed.campaigns.find((c) => c.phones.includes("+16046830000"))!;
    expect(vancouver.rules).toEqual([]);
    expect(vancouver.scheduledAt).toBe(new Date(AT).toISOString());
    expect(local(vancouver.callUntil, BC_NOW)).toBe("20:45");
    const jamaica = windowed.campaigns.find((c) => c.phones.includes("+18765550100"))!;
    expect(local(jamaica.callUntil, "America/Jamaica")).toBe("20:45");
  });

  it("follow-ups and hand-backs hold a Canadian number of a Florida campaign to Florida's cap, as its plan did", () => {
    const def = JobDefinition.parse({
      name: "caps",
      inbox: "/nowhere",
      segment: { name: "caps" },
      campaign: { assistant: { id: "a" }, dialer: { id: "d" } },
      calling: { rules: ["us"] },
    });
    expect(capsFor(def, "+16046830000", "FL")).toEqual([{ calls: 3, perHours: 24 }]);
    expect(capsFor(def, "+16046830000")).toEqual([]);
  });

  it("a Canadian number with a US state column is under that state's rules, in its zones and the number's", async () => {
    const [c] = (await preview([["+16046830000", "FL", ""]])).campaigns;
    expect(c!.rules).toEqual(["us:FL"]);
    expect(c!.zones).toEqual(expect.arrayContaining(["America/Chicago", MIAMI, VANCOUVER, PST_PDT, BC_NOW]));
    expect(local(c!.callUntil, MIAMI)).toBe("19:45");
    expect(local(c!.scheduledAt, PST_PDT) >= "08:00").toBe(true);
  });
});

describe("Canadian numbers' zones (the phone-geo tables checked, issue 43)", () => {
  const zonesOf = (phone: string, hints = {}) => locateCallee(phone, hints).zones;

  it("an exchange the data places only in the province: every clock of its area code", () => {
    expect(zonesOf("+12505550100")).toEqual(expect.arrayContaining(["America/Edmonton", VANCOUVER]));
    expect(zonesOf("+18075550100")).toEqual(["America/Toronto", "America/Winnipeg"]);
    expect(zonesOf("+18675550100")).toEqual(
      expect.arrayContaining(["America/Edmonton", "America/Toronto", VANCOUVER, "America/Winnipeg"]),
    );
    // Where the data knows the place, its zone stands (with BC's readings).
    expect(locateCallee("+16046830000")).toMatchObject({ country: "CA", region: "BC" });
    expect(zonesOf("+16046830000")).toEqual([VANCOUVER, PST_PDT, BC_NOW]);
    expect(zonesOf("+18074680000")).toEqual(["America/Winnipeg"]);
  });

  it("an overlay the data knows only by its province: the province's clocks (236 over 604 and 250)", () => {
    // Pacific, Mountain (East Kootenay) and MST all year (Creston, Dawson Creek, Fort Nelson: -07).
    expect(zonesOf("+12365550100")).toEqual(
      expect.arrayContaining(["America/Edmonton", VANCOUVER, "America/Denver", BC_NOW]),
    );
  });

  it("places the data puts in a clock they don't keep get theirs too (zone.tab)", () => {
    expect(zonesOf("+12507820000")).toContain("America/Dawson_Creek");
    expect(zonesOf("+12504280000")).toContain("America/Creston");
    // Whitehorse keeps -07 all year (Etc/GMT+7 is its clock); the data says Vancouver.
    expect(zonesOf("+18676670000")).toContain(BC_NOW);
  });

  it("Alberta: Edmonton by the data's reading, MST/MDT before its 2026 law and -06 after", () => {
    expect(zonesOf("+14032620000")).toEqual(["America/Edmonton", "America/Denver", "Etc/GMT+6"]);
  });

  it("a province column adds the province's clocks; a region cell on a number outside North America is its label only", () => {
    expect(locateCallee("+12125550107", { region: "Alberta" })).toMatchObject({
      region: "AB",
      countries: ["US", "CA"],
    });
    expect(zonesOf("+12125550107", { region: "Alberta" })).toEqual(
      expect.arrayContaining(["America/Edmonton", MIAMI]),
    );
    expect(locateCallee("+12125550107", { region: "Kent" }).region).toBe("KY");
    expect(locateCallee("+447911123456", { region: "Kent" })).toMatchObject({
      region: "Kent",
      zones: ["Europe/London"],
    });
  });
});
