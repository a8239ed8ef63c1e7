import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatProblem } from "../../src/config/job-problems.ts";
import { loadJobs } from "../../src/config/load-jobs.ts";
import { loadResources } from "../../src/config/load-resources.ts";
import { runCli } from "../support/cli.ts";
import { tempDir } from "../support/files.ts";
import { dialerYaml, writeResources } from "../support/resources.ts";

/*
 * A dialer pool of resources/ (`kind: dialerPool`, issue 47 item 4): what `vcw apply` refuses, with
 * file, line and field, and what a job naming a pool is told (the loader of the daemon, `vcw
 * preview` and `vcw jobs check`).
 */
const ENV = { TEST_DIALER_TOKEN: "tok-pool" };
const poolYaml = (name: string, lines: string[], extra = "") =>
  `kind: dialerPool\nname: ${name}\nspec:\n  pool:\n${lines.map((l) => `    - { resource: ${l} }\n`).join("")}${extra}`;

/** A resource folder: a dialer `sf` and the given pool documents. */
function resourceDir(pools: string[]): string {
  const dir = tempDir("vcw-pools-");
  writeResources(dir, [dialerYaml("sf"), ...pools]);
  return dir;
}

/** A jobs folder with one job whose `campaign.dialers` is the given YAML. */
function jobsDir(dialers: string): string {
  const dir = tempDir("vcw-pool-jobs-");
  mkdirSync(join(dir, "inbox"));
  writeFileSync(
    join(dir, "calls.yaml"),
    `name: calls\ninbox: ${join(dir, "inbox")}\nsegment: { name: calls }\ncampaign:\n  assistant: { id: a1 }\n  dialers: ${dialers}\n`,
  );
  return dir;
}

describe("dialer pools in resources/", () => {
  it("a pool naming an undeclared dialer, or declared twice: each problem with its file, line and field", async () => {
    const dir = resourceDir([
      poolYaml("west", ["sf", "ny"]),
      poolYaml("east", ["sf"], "  match: [areaCode, street]\n"),
      poolYaml("west", ["sf"]),
    ]);
    const loaded = await loadResources(dir, ENV);
    const file = join(dir, "all.yaml");
    expect(loaded.problems.map(formatProblem)).toEqual([
      expect.stringMatching(new RegExp(`^${file}:\\d+: spec.match.1: `)),
      `${file}:14: spec.pool.1.resource: no dialer named "ny" in the resource files`,
      expect.stringMatching(
        new RegExp(`^${file}:\\d+: name: dialerPool "west" is also declared in ${file}:\\d+$`),
      ),
    ]);
    expect(loaded.pools).toEqual([]);
  });

  it("vcw apply --dry-run refuses a pool naming an undeclared dialer, naming its file and field", async () => {
    const dir = resourceDir([poolYaml("west", ["sf", "ny"])]);
    const run = await runCli(["apply", "--dry-run"], { VCW_RESOURCES_DIR: dir });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `fail ${join(dir, "all.yaml")}:14: spec.pool.1.resource: no dialer named "ny" in the resource files`,
    );
  });

  it("a job naming a pool gets the pool's dialers, match and budgets; an unknown or invalid pool is its problem", async () => {
    const resources = resourceDir([
      poolYaml("west", ["sf"], "  match: [areaCode, any]\n  perNumber: { perDay: 10 }\n"),
      poolYaml("broken", ["sf", "ny"]),
    ]);
    const ok = await loadJobs(jobsDir("{ resource: west }"), resources);
    expect(ok.problems).toEqual([]);
    expect(ok.jobs[0]!.job.campaign).toMatchObject({
      dialers: {
        pool: [{ resource: "sf" }],
        match: ["areaCode", "any"],
        perNumber: { perDay: 10, whenSpent: "next" },
      },
      dialer: { resource: "sf" },
    });
    const unknown = jobsDir("{ resource: north }");
    const missing = await loadJobs(unknown, resources);
    expect(missing.jobs).toEqual([]);
    expect(missing.problems.map(formatProblem)).toEqual([
      `${join(unknown, "calls.yaml")}:6: campaign.dialers.resource: no dialerPool named "north" in ${resources}`,
    ]);
    const invalid = await loadJobs(jobsDir("{ resource: broken }"), resources);
    expect(invalid.problems.map(formatProblem)).toEqual([
      expect.stringContaining(
        `campaign.dialers.resource: names dialerPool "broken", which is not valid: ${join(resources, "all.yaml")}:`,
      ),
    ]);
    expect(invalid.problems[0]!.message).toContain('spec.pool.1.resource: no dialer named "ny"');
    // The inline pool keeps working beside it.
    const inline = await loadJobs(jobsDir("{ pool: [{ id: d1, number: '+14155550100' }] }"), resources);
    expect(inline.problems).toEqual([]);
  });
});
