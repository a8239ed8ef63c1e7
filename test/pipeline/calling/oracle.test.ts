import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { customRuleSet, RULE_SETS } from "../../../src/calling-rules/index.ts";
import { JobDefinition } from "../../../src/config/job-definition.ts";
import type { HoursConstraint } from "../../../src/pipeline/calling/calling-hours.ts";
import type { JobWindow } from "../../../src/pipeline/calling/effective-rules.ts";
import { gatherFacts } from "../../../src/pipeline/calling/gather-facts.ts";
import {
  type ContactFacts,
  type PlanSettings,
  planCampaigns,
} from "../../../src/pipeline/calling/plan-campaigns.ts";
import { CHI, illegalInstants, minutes, NY, TABLE, type Truth } from "../../support/calling-oracle.ts";
import { tempDir } from "../../support/files.ts";

/**
 * Issue 31's done-when: an oracle of its own (test/support/calling-oracle.ts: where each number of
 * its table really is, and its own reading of the law). For every number, at every planning instant
 * of the DST-change days and of the UK/US mismatch weeks (and 20:30 in New York), for a job that
 * starts asap, one with a window in the callee's zone and one with a custom window across the clock
 * change, every instant of every planned campaign, and of the campaign a window close hands its
 * contacts back to, must be allowed in every zone the callee may really be in. Generated files
 * (cells that disagree with the number, Canadian and Caribbean numbers): oracle-generated.test.ts.
 */

/**
 * Planning instants: every 3 h of the DST-change days and the UK/US mismatch weeks, 20:30 in New
 * York, and every 6 h around the holidays the states' rules name (and the weekends around them).
 */
const DAYS = [
  "2026-03-08",
  "2026-03-09",
  "2026-03-15",
  "2026-03-29",
  "2026-10-25",
  "2026-10-28",
  "2026-11-01",
  "2026-11-02",
];
const HOLIDAY_DAYS = [
  "2026-02-16",
  "2026-04-02",
  "2026-06-14",
  "2026-07-02",
  "2026-07-05",
  "2026-07-23",
  "2026-08-09",
  "2026-11-25",
  "2026-12-24",
  "2026-12-31",
  "2027-02-08",
  "2027-03-25",
  "2027-06-18",
  "2027-07-03",
  "2027-12-23",
];
const at = (day: string, hours: readonly number[]) =>
  hours.map((h) => DateTime.fromISO(`${day}T00:00Z`).plus({ hours: h }).toMillis());
const INSTANTS = [
  ...DAYS.flatMap((d) => at(d, [0, 3, 6, 9, 12, 15, 18, 21])),
  ...HOLIDAY_DAYS.flatMap((d) => at(d, [0, 6, 12, 18])),
  DateTime.fromISO("2026-11-24T20:30", { zone: NY }).toMillis(),
  DateTime.fromISO("2026-03-08T01:59", { zone: NY }).toMillis(),
  DateTime.fromISO("2026-11-01T01:30", { zone: NY }).toMillis(),
];

const ALL_DAYS: JobWindow["days"] = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];
const MARGIN = 15 * 60_000;

function settings(at: number, o: Partial<PlanSettings>): PlanSettings {
  return {
    at,
    ruleSets: [RULE_SETS.us!],
    fallbackTimezone: "UTC",
    caps: [],
    pacePerMinute: 1,
    marginMs: MARGIN,
    horizonMs: 2 * 86_400_000,
    ...o,
  };
}

/** The table as a contacts file, read by the daemon's own fact gathering (location columns, then the number). */
async function tableFacts(rows: readonly Truth[]): Promise<ContactFacts[]> {
  const dir = tempDir("vcw-oracle-");
  const lines = [
    "First Name,Phone,State,Time Zone",
    ...rows.map((r, i) => `Callee ${i},${r.phone},${r.cells?.region ?? ""},${r.cells?.timezone ?? ""}`),
  ];
  writeFileSync(join(dir, "table.csv"), `${lines.join("\n")}\n`);
  const def = JobDefinition.parse({
    name: "oracle",
    inbox: dir,
    segment: { name: "oracle" },
    contacts: { country: "US" },
    campaign: { assistant: { id: "a" }, dialer: { id: "d" } },
    calling: { rules: ["us"] },
  });
  const none = async () => new Set<string>();
  const empty = async () => new Map();
  const read = await gatherFacts(
    def,
    join(dir, "table.csv"),
    { suppressed: none, lastCalled: empty, callTimes: empty },
    Date.now(),
  );
  expect(read.contacts).toHaveLength(rows.length);
  return read.contacts;
}

function assertLegal(
  campaigns: {
    phones: string[];
    scheduledAt: number;
    callUntil: number;
    hours: readonly HoursConstraint[];
  }[],
  extra: readonly (readonly [string, string])[],
  at: number,
) {
  const truthOf = (phone: string) => TABLE.find((x) => x.phone === phone)!;
  const { illegal, checked } = illegalInstants(campaigns, truthOf, extra, MARGIN);
  expect(illegal, `planned at ${new Date(at).toISOString()}`).toEqual([]);
  return checked;
}

// Each case checks thousands of minutes (about 23 s alone on two cores): a loaded machine needs more than the default.
describe("the oracle: no illegal instant, for any number of the table, at the DST and mismatch instants", () => {
  it("asap under rules [us]", async () => {
    const facts = await tableFacts(TABLE);
    let checked = 0;
    for (const at of INSTANTS) {
      const plan = planCampaigns(facts, settings(at, {}));
      checked += assertLegal(plan.campaigns, [], at);
    }
    expect(checked).toBeGreaterThan(5_000);
  }, 120_000);

  it("a window in the callee's zone (07:00-22:00, wider than the law) under rules [us]", async () => {
    const facts = await tableFacts(TABLE);
    for (const at of INSTANTS) {
      const window = { days: ALL_DAYS, from: "07:00", to: "22:00", timezone: "callee" };
      const plan = planCampaigns(facts, settings(at, { window, fallbackTimezone: CHI }));
      assertLegal(plan.campaigns, [], at);
      // None silently dropped: a number with no opening in two days (a toll-free one over a
      // weekend and a holiday: every state's days apply) is skipped as outside_hours, and a week's
      // horizon plans it, legally too.
      const skipped = plan.skips.map((x) => x.phone);
      expect(new Set(plan.skips.map((x) => x.reason))).toEqual(
        new Set(skipped.length ? ["outside_hours"] : []),
      );
      expect([...plan.campaigns.flatMap((c) => c.phones), ...skipped].sort()).toEqual(
        TABLE.map((x) => x.phone).sort(),
      );
      const week = planCampaigns(
        facts.filter((f) => skipped.includes(f.phone)),
        settings(at, { window, fallbackTimezone: CHI, horizonMs: 7 * 86_400_000 }),
      );
      expect(week.campaigns.flatMap((c) => c.phones).sort()).toEqual([...skipped].sort());
      assertLegal(week.campaigns, [], at);
    }
  }, 120_000);

  it("a custom window across the clock change (01:30-02:30), rules [custom] alone: only its local minutes", async () => {
    const custom = customRuleSet({ hours: { from: "01:30", to: "02:30" } });
    const facts = await tableFacts(TABLE.filter((x) => x.zones.length === 1 && x.zones[0] === NY));
    for (const at of INSTANTS) {
      const plan = planCampaigns(facts, settings(at, { ruleSets: [custom], marginMs: 0 }));
      for (const c of plan.campaigns)
        for (const t of minutes(c.scheduledAt, c.callUntil)) {
          const hhmm = DateTime.fromMillis(t, { zone: NY }).toFormat("HH:mm");
          expect(
            hhmm >= "01:30" && hhmm < "02:30",
            `${new Date(t).toISOString()} is ${hhmm} in New York`,
          ).toBe(true);
        }
    }
  });
});
