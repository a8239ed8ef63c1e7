import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { underCallingRules } from "../../src/config/calling-rules-switch.ts";
import { JobDefinition } from "../../src/config/job-definition.ts";
import { formatProblem } from "../../src/config/job-problems.ts";
import { loadJobs } from "../../src/config/load-jobs.ts";
import { gatherFacts } from "../../src/pipeline/calling/gather-facts.ts";
import { planCampaigns } from "../../src/pipeline/calling/plan-campaigns.ts";
import { planSettingsOf } from "../../src/pipeline/calling/plan-settings.ts";
import { tempDir } from "../support/files.ts";

/** A job whose window is in the callee's zone; `where` and `often` in the old or the new places. */
function jobYaml(o: { old: boolean; calling?: string[] }) {
  return [
    "name: leads",
    "inbox: inbox/leads",
    "segment: { name: Leads }",
    "contacts:",
    "  country: US",
    ...(o.old ? ["  recallAfterDays: 3"] : []),
    "campaign:",
    "  assistant: { id: ast_1 }",
    "  dialer: { id: dlr_1 }",
    "  start:",
    "    window:",
    "      days: [mon, tue, wed, thu, fri, sat, sun]",
    "      from: '09:00'",
    "      to: '17:00'",
    "      timezone: callee",
    ...(o.old ? ["      fallbackTimezone: America/Denver"] : []),
    ...(o.old && !o.calling ? [] : ["calling:"]),
    ...(o.calling ?? []),
    ...(o.old ? [] : ["  location: { fallbackTimezone: America/Denver }", "  caps: { recallAfterDays: 3 }"]),
    "",
  ].join("\n");
}

/** Loads one job file through the loader the daemon and every command use. */
async function load(yaml: string) {
  const dir = join(tempDir("vcw-spellings-"), "jobs");
  mkdirSync(dir);
  writeFileSync(join(dir, "leads.yaml"), yaml);
  return loadJobs(dir);
}

const none = {
  suppressed: async () => new Set<string>(),
  lastCalled: async () => new Map<string, number>(),
  callTimes: async () => new Map(),
};

/** The one planner's plan of a small file: New York, Los Angeles and a toll-free number (the fallback). */
async function planOf(def: JobDefinition) {
  const path = join(tempDir("vcw-spellings-csv-"), "f.csv");
  const phones = ["+12125550101", "+13105550101", "+18005550101"];
  writeFileSync(path, ["Phone,First Name", ...phones.map((p) => `${p},Ann`)].join("\n"));
  const at = Date.UTC(2026, 10, 24, 12);
  const facts = await gatherFacts(def, path, none, at);
  return planCampaigns(facts.contacts, planSettingsOf(def, at, at, undefined));
}

describe("one place for where and when (decision 0049): old spellings still read", () => {
  it("a file in the old spelling loads as the new one, with the same plan, and a warning per old field", async () => {
    const old = await load(jobYaml({ old: true }));
    const current = await load(jobYaml({ old: false }));
    expect(old.problems).toEqual([]);
    expect(current.problems).toEqual([]);
    const def = old.jobs[0]!.job;
    expect(def).toEqual(current.jobs[0]!.job);
    expect(def.calling.location.fallbackTimezone).toBe("America/Denver");
    expect(def.calling.caps.recallAfterDays).toBe(3);
    // The moved fields alone turn on no calling rules: the job plans as it did without `calling:`.
    expect(underCallingRules(def)).toBe(false);
    const plan = await planOf(def);
    expect(plan).toEqual(await planOf(current.jobs[0]!.job));
    expect(plan.campaigns.map((c) => c.zone).sort()).toEqual([
      "America/Denver",
      "America/Los_Angeles",
      "America/New_York",
    ]);
    expect(old.warnings.map(formatProblem)).toEqual([
      expect.stringMatching(
        /leads\.yaml:16: campaign\.start\.window\.fallbackTimezone: is now calling\.location\.fallbackTimezone \(read as such\)$/,
      ),
      expect.stringMatching(
        /leads\.yaml:6: contacts\.recallAfterDays: is now calling\.caps\.recallAfterDays \(read as such\)$/,
      ),
    ]);
    expect(current.warnings).toEqual([]);
  });

  it("into a calling block with rules: merged there, the rules untouched", async () => {
    const old = await load(jobYaml({ old: true, calling: ["  rules: [us]", "  caps: { per24h: 2 }"] }));
    const current = await load(jobYaml({ old: false, calling: ["  rules: [us]"] }));
    expect(old.problems).toEqual([]);
    const def = old.jobs[0]!.job;
    expect(def.calling).toMatchObject({
      rules: ["us"],
      caps: { per24h: 2, recallAfterDays: 3 },
      location: { fallbackTimezone: "America/Denver" },
    });
    expect(underCallingRules(def)).toBe(true);
    expect({ ...def, calling: { ...def.calling, caps: {} } }).toEqual({
      ...current.jobs[0]!.job,
      calling: { ...current.jobs[0]!.job.calling, caps: {} },
    });
    expect(old.warnings).toHaveLength(2);
  });

  it("both spellings with different values: an error naming both, and the job is not loaded", async () => {
    const yaml = jobYaml({ old: true, calling: ["  caps: { recallAfterDays: 5 }"] });
    const loaded = await load(yaml);
    expect(loaded.jobs).toEqual([]);
    expect(loaded.problems.map(formatProblem)).toEqual([
      expect.stringMatching(
        /leads\.yaml:6: contacts\.recallAfterDays: is now calling\.caps\.recallAfterDays, which the file gives too with another value: keep calling\.caps\.recallAfterDays and remove this one$/,
      ),
    ]);
    // The other old field is still only a warning; the conflicting one is not "read as such".
    expect(loaded.warnings.map((w) => w.path)).toEqual(["campaign.start.window.fallbackTimezone"]);
    // The same value twice is no conflict.
    const same = await load(jobYaml({ old: true, calling: ["  caps: { recallAfterDays: 3 }"] }));
    expect(same.problems).toEqual([]);
    expect(same.jobs[0]!.job.calling.caps.recallAfterDays).toBe(3);
  });

  it("custom's caps are read as the job's caps (decision 0074): one caps block, cited as the job's", async () => {
    const custom = ["  rules: [custom]", "  custom: { from: '10:00', to: '16:00', per24h: 2, per7d: 4 }"];
    const old = await load(jobYaml({ old: false, calling: custom }));
    const current = await load(
      jobYaml({
        old: false,
        calling: ["  rules: [custom]", "  custom: { from: '10:00', to: '16:00' }"],
      }).replace("caps: { recallAfterDays: 3 }", "caps: { recallAfterDays: 3, per24h: 2, per7d: 4 }"),
    );
    expect(old.problems).toEqual([]);
    expect(old.jobs[0]!.job).toEqual(current.jobs[0]!.job);
    expect(old.jobs[0]!.job.calling.caps).toMatchObject({ per24h: 2, per7d: 4 });
    expect(old.warnings.map(formatProblem)).toEqual([
      expect.stringMatching(
        /leads\.yaml:\d+: calling\.custom\.per24h: is now calling\.caps\.per24h \(read as such\)$/,
      ),
      expect.stringMatching(
        /leads\.yaml:\d+: calling\.custom\.per7d: is now calling\.caps\.per7d \(read as such\)$/,
      ),
    ]);
    // The plan's caps cite the job's caps, once each: not a second copy cited as calling.custom.
    const settings = planSettingsOf(
      old.jobs[0]!.job,
      Date.UTC(2026, 10, 24, 12),
      Date.UTC(2026, 10, 24, 12),
      undefined,
    );
    expect(settings.caps.map((c) => [c.calls, c.perHours, c.source.cite])).toEqual([
      [2, 24, "the job's calling.caps"],
      [4, 168, "the job's calling.caps"],
    ]);
    // Both spellings with other values: the job is not loaded, and the error names both.
    const both = await load(
      jobYaml({ old: false, calling: custom }).replace(
        "caps: { recallAfterDays: 3 }",
        "caps: { recallAfterDays: 3, per24h: 1 }",
      ),
    );
    expect(both.jobs).toEqual([]);
    expect(both.problems.map(formatProblem)).toEqual([
      expect.stringMatching(
        /calling\.custom\.per24h: is now calling\.caps\.per24h, which the file gives too with another value/,
      ),
    ]);
  });

  it("timezone: callee needs a fallback zone, in its one place", async () => {
    const loaded = await load(
      jobYaml({ old: false }).replace("location: { fallbackTimezone: America/Denver }", "location: {}"),
    );
    expect(loaded.problems.map(formatProblem)).toEqual([
      expect.stringMatching(
        /leads\.yaml:\d+: campaign\.start\.window\.timezone: needs calling\.location\.fallbackTimezone/,
      ),
    ]);
  });

  it("a calling block turns on the rules unless it holds only the fallback zone and the cooldown", () => {
    const parse = (calling?: unknown) =>
      JobDefinition.parse({ name: "j", inbox: "/nowhere", segment: { name: "j" }, calling });
    expect(underCallingRules(parse())).toBe(false);
    expect(parse().calling.caps.recallAfterDays).toBe(7);
    expect(underCallingRules(parse({}))).toBe(true);
    expect(underCallingRules(parse({ location: {} }))).toBe(true);
    expect(
      underCallingRules(parse({ location: { fallbackTimezone: "UTC" }, caps: { recallAfterDays: 0 } })),
    ).toBe(false);
    expect(underCallingRules(parse({ caps: { recallAfterDays: 0, per24h: 2 } }))).toBe(true);
    expect(underCallingRules(parse({ location: { region: "State" } }))).toBe(true);
    expect(underCallingRules(parse({ marginMinutes: 15 }))).toBe(true);
    expect(underCallingRules(parse({ rules: [] }))).toBe(true);
  });
});
