import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { RULE_SETS } from "../../../src/calling-rules/index.ts";
import type { CalleeLocation } from "../../../src/pipeline/calling/callee-location.ts";
import { capFreesAt } from "../../../src/pipeline/calling/frequency.ts";
import {
  type ContactFacts,
  type PlanSettings,
  planCampaigns,
} from "../../../src/pipeline/calling/plan-campaigns.ts";

const NY: CalleeLocation = { country: "US", region: "NY", zones: ["America/New_York"], from: "number" };
const FL: CalleeLocation = { country: "US", region: "FL", zones: ["America/New_York"], from: "number" };
const LA: CalleeLocation = { country: "US", region: "CA", zones: ["America/Los_Angeles"], from: "number" };
const ny = (day: string, hhmm: string) =>
  DateTime.fromISO(`${day}T${hhmm}`, { zone: "America/New_York" }).toMillis();
const HOUR = 3_600_000;

const contact = (n: number, where: CalleeLocation, more: Partial<ContactFacts> = {}): ContactFacts => ({
  phone: `+1212555${String(n).padStart(4, "0")}`,
  where,
  optedOut: false,
  recentlyCalled: false,
  calls: [],
  ...more,
});

const settings = (more: Partial<PlanSettings> = {}): PlanSettings => ({
  at: ny("2026-11-23", "20:30"),
  ruleSets: [RULE_SETS.us!],
  fallbackTimezone: "America/Chicago",
  caps: [],
  pacePerMinute: 1,
  marginMs: 15 * 60_000,
  horizonMs: 3 * 86_400_000,
  ...more,
});

describe("planCampaigns", () => {
  it("sizes a campaign to end before its window closes, with the margin; the rest go to the next openings", () => {
    // 20:30 in New York: 30 minutes left, less 15 of margin: 15 calls at 1 a minute.
    const contacts = Array.from({ length: 40 }, (_, i) => contact(i, NY));
    const plan = planCampaigns(contacts, settings());
    expect(plan.campaigns.map((c) => [c.phones.length, c.scheduledAt, c.callUntil])).toEqual([
      [15, ny("2026-11-23", "20:30"), ny("2026-11-23", "20:45")],
      [25, ny("2026-11-24", "08:00"), ny("2026-11-24", "20:45")],
    ]);
    expect(plan.campaigns[0]!.expectedEndAt).toBe(ny("2026-11-23", "20:45"));
    expect(plan.campaigns[1]!.label).toBe("America/New_York #2");
    expect(plan.later).toEqual({ contacts: 25, windowFull: 25, frequencyCap: 0 });
    // File order kept: the first 15 first.
    expect(plan.campaigns[0]!.phones).toEqual(contacts.slice(0, 15).map((c) => c.phone));
  });

  it("groups by effective window: Florida's 20:00 apart from New York's 21:00 in the same zone", () => {
    const plan = planCampaigns(
      [contact(1, NY), contact(2, FL), contact(3, LA)],
      settings({ at: ny("2026-11-23", "12:00") }),
    );
    expect(plan.campaigns.map((c) => [c.label, c.region, c.callUntil])).toEqual([
      ["America/New_York", "NY", ny("2026-11-23", "20:45")],
      ["America/New_York FL", "FL", ny("2026-11-23", "19:45")],
      ["America/Los_Angeles", "CA", ny("2026-11-23", "23:45")],
    ]);
  });

  it("skips opted-out and recently called numbers with their reasons, in file order", () => {
    const plan = planCampaigns(
      [contact(1, NY, { recentlyCalled: true }), contact(2, NY), contact(3, NY, { optedOut: true })],
      settings({ at: ny("2026-11-23", "12:00") }),
    );
    expect(plan.skipped).toEqual({ recently_called: 1, opted_out: 1 });
    expect(plan.skips.map((s) => s.reason)).toEqual(["recently_called", "opted_out"]);
    expect(plan.campaigns[0]!.phones).toEqual([contact(2, NY).phone]);
  });

  it("a number at Florida's cap of 3 per 24 h waits for the opening after its oldest call leaves the 24 h", () => {
    const noon = ny("2026-11-23", "12:00");
    const calls = [noon - 20 * HOUR, noon - 3 * HOUR, noon - 2 * HOUR];
    const plan = planCampaigns([contact(1, FL, { calls }), contact(2, FL)], settings({ at: noon }));
    // Frees at noon - 20h + 24h = 16:00 today: the next opening at or after it is tomorrow's 08:00.
    expect(plan.campaigns.map((c) => [c.phones, c.scheduledAt])).toEqual([
      [[contact(2, FL).phone], noon],
      [[contact(1, FL).phone], ny("2026-11-24", "08:00")],
    ]);
    expect(plan.later).toEqual({ contacts: 1, windowFull: 0, frequencyCap: 1 });
  });

  it("callBy: contacts that fit before it are planned; the rest are dropped as call_by_passed, never late", () => {
    const contacts = Array.from({ length: 30 }, (_, i) => contact(i, NY));
    const plan = planCampaigns(contacts, settings({ callBy: ny("2026-11-24", "08:10") }));
    expect(plan.campaigns.map((c) => c.phones.length)).toEqual([15, 10]);
    expect(plan.campaigns[1]!.callUntil).toBe(ny("2026-11-24", "08:10"));
    expect(plan.skipped).toEqual({ call_by_passed: 5 });
  });

  it("a window that never opens within the horizon skips its contacts as outside_hours", () => {
    const plan = planCampaigns(
      [contact(1, NY)],
      settings({
        window: { days: ["sun"], from: "09:00", to: "10:00", timezone: "callee" },
        horizonMs: 86_400_000,
      }),
    );
    expect(plan.campaigns).toEqual([]);
    expect(plan.skipped).toEqual({ outside_hours: 1 });
  });

  it("the same inputs give the same plan (the daemon and the preview agree)", () => {
    const contacts = Array.from({ length: 50 }, (_, i) =>
      contact(i, i % 3 === 0 ? FL : i % 3 === 1 ? NY : LA),
    );
    expect(planCampaigns(contacts, settings())).toEqual(planCampaigns(contacts, settings()));
  });
});

describe("capFreesAt", () => {
  it("is now under the cap, else when the oldest call that matters leaves the period", () => {
    const cap = [{ calls: 2, perHours: 24, source: RULE_SETS.us!.regions.FL!.caps[0]!.source }];
    expect(capFreesAt([0], cap, 10 * HOUR)).toBe(10 * HOUR);
    expect(capFreesAt([0, 5 * HOUR], cap, 10 * HOUR)).toBe(24 * HOUR);
    expect(capFreesAt([0, 5 * HOUR, 6 * HOUR], cap, 10 * HOUR)).toBe(29 * HOUR);
  });
});
