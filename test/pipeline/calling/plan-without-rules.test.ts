import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { JobDefinition } from "../../../src/config/job-definition.ts";
import { distinctTimeZones } from "../../../src/pipeline/calling/distinct-zones.ts";
import { gatherFacts } from "../../../src/pipeline/calling/gather-facts.ts";
import { planCampaigns } from "../../../src/pipeline/calling/plan-campaigns.ts";
import { planSettingsOf } from "../../../src/pipeline/calling/plan-settings.ts";
import { tempDir } from "../../support/files.ts";

const ALL_WEEK = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];

/** A job without calling rules whose window is in the callee's zone. */
const job = (fallbackTimezone: string, start?: unknown) =>
  JobDefinition.parse({
    name: "plain",
    inbox: "/nowhere",
    segment: { name: "plain" },
    contacts: { country: "US" },
    campaign: {
      assistant: { id: "a1" },
      dialer: { id: "d1" },
      start: start ?? {
        window: { days: ALL_WEEK, from: "09:00", to: "17:00", timezone: "callee", fallbackTimezone },
      },
    },
  });

const none = {
  suppressed: async () => new Set<string>(),
  lastCalled: async () => new Map<string, number>(),
  callTimes: async () => new Map(),
};

/** Each phone's campaign zone, as the one planner plans a job without `calling:`. */
async function zonesOf(def: JobDefinition, phones: string[], at = Date.UTC(2026, 10, 24, 12)) {
  const path = join(tempDir("vcw-norules-"), "f.csv");
  // A state column is not read without calling rules: the number alone says where.
  writeFileSync(path, ["Phone,First Name,State", ...phones.map((p) => `${p},Ann,Alaska`)].join("\n"));
  const facts = await gatherFacts(def, path, none, at);
  const plan = planCampaigns(facts.contacts, planSettingsOf(def, at, at, undefined));
  return new Map(plan.campaigns.flatMap((c) => c.phones.map((p) => [p, c.zone])));
}

describe("the callee's time zone, from their number (a job without calling rules)", () => {
  it.each([
    ["+12125550101", "America/New_York"],
    ["+13105550101", "America/Los_Angeles"],
    ["+13125550101", "America/Chicago"],
    ["+442079460101", "Europe/London"],
    ["+81355550101", "Asia/Tokyo"],
    ["+61291234567", "Australia/Sydney"],
  ])("%s is in %s", async (phone, zone) => {
    expect((await zonesOf(job("UTC"), [phone])).get(phone)).toBe(zone);
  });

  it("zones that keep the same time count as one: a UK mobile is called on London hours", async () => {
    expect((await zonesOf(job("UTC"), ["+447911123456"])).get("+447911123456")).toBe("Europe/London");
    expect(distinctTimeZones(["Europe/Jersey", "Europe/London", "Europe/Guernsey"])).toEqual([
      "Europe/London",
    ]);
  });

  it("zones that keep different times, or a number with none, take the fallback", async () => {
    // Toll-free: all of NANP.
    expect((await zonesOf(job("America/Denver"), ["+18005550101"])).get("+18005550101")).toBe(
      "America/Denver",
    );
    expect(distinctTimeZones(["Europe/London", "America/New_York"])).toHaveLength(2);
    // Same offset in winter, but summer time starts on other dates: not the same hours.
    expect(distinctTimeZones(["Europe/Lisbon", "Africa/Casablanca"])).toHaveLength(2);
  });

  it("one campaign per zone, each whole (not sized to a pace), at the window's next opening there", async () => {
    const def = job("UTC");
    const at = Date.UTC(2026, 10, 24, 12); // 07:00 in New York, 21:00 in Tokyo
    const path = join(tempDir("vcw-norules-"), "f.csv");
    const ny = Array.from({ length: 500 }, (_, i) => `+1212555${String(1000 + i)}`);
    writeFileSync(path, ["Phone,First Name", ...[...ny, "+81355550101"].map((p) => `${p},Ann`)].join("\n"));
    const facts = await gatherFacts(def, path, none, at);
    const plan = planCampaigns(facts.contacts, planSettingsOf(def, at, at, undefined));
    expect(
      plan.campaigns.map((c) => [c.zone, c.phones.length, new Date(c.scheduledAt).toISOString()]),
    ).toEqual([
      ["America/New_York", 500, "2026-11-24T14:00:00.000Z"],
      ["Asia/Tokyo", 1, "2026-11-25T00:00:00.000Z"],
    ]);
  });

  it("a window in a fixed zone, or asap: one campaign, no zone read", async () => {
    const at = Date.UTC(2026, 10, 24, 12);
    const fixed = job("UTC", {
      window: { days: ALL_WEEK, from: "09:00", to: "17:00", timezone: "Asia/Tokyo" },
    });
    const zones = await zonesOf(fixed, ["+12125550101", "+81355550101"], at);
    expect(new Set(zones.values()).size).toBe(1);
    const asap = job("UTC", "asap");
    const path = join(tempDir("vcw-norules-"), "f.csv");
    writeFileSync(path, ["Phone,First Name", "+12125550101,Ann", "+81355550101,Bo"].join("\n"));
    const plan = planCampaigns(
      (await gatherFacts(asap, path, none, at)).contacts,
      planSettingsOf(asap, at, at, undefined),
    );
    expect(plan.campaigns.map((c) => [c.phones.length, c.scheduledAt])).toEqual([[2, at]]);
  });
});
