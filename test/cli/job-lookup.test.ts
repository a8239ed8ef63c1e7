import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { CALLING_RULE_SETS } from "../../src/config/job-definition.ts";
import { calleeWindowJobYaml } from "../support/calling-job.ts";
import { runCli } from "../support/cli.ts";
import { tempDir } from "../support/files.ts";

const MIXED = join(import.meta.dirname, "../fixtures/calling/mixed.csv");

/** A folder with job `leads`, its calling block as given, and a valid job beside it. */
function jobsWith(calling: string[]): { jobs: string; file: string; env: NodeJS.ProcessEnv } {
  const home = tempDir("vcw-lookup-");
  const jobs = join(home, "jobs");
  mkdirSync(jobs);
  const job = (name: string, extra: string[]) => calleeWindowJobYaml(name, join(home, "inbox", name), extra);
  const file = join(jobs, "leads.yaml");
  writeFileSync(file, job("leads", calling));
  writeFileSync(join(jobs, "other.yaml"), job("other", []));
  const env = {
    VCW_JOBS_DIR: jobs,
    VCW_HOME: join(home, ".vcw"),
    VCW_PREFIX: `vcw-lookup-${randomBytes(4).toString("hex")}`,
    REDIS_URL: inject("redisUrl"),
  };
  return { jobs, file, env };
}

describe("a command naming a job whose file is invalid says which file and what is wrong", () => {
  it("vcw preview --job and vcw report --job name the file, the line and the problem", async () => {
    const { file, env } = jobsWith(["calling:", "  rules: uk"]);
    const preview = await runCli(["preview", MIXED, "--job", "leads"], env, 60_000);
    expect(preview.code).toBe(2);
    expect(preview.stderr).toBe(
      `vcw: job "leads" (${file}) is not loaded, its definition has a problem: ${file}:11: calling.rules: must be one of ${CALLING_RULE_SETS.join(", ")}, or a list of them such as [us, gb]\n`,
    );
    const report = await runCli(["report", "--job", "leads", "--since", "7d"], env, 60_000);
    expect(report.code).toBe(2);
    expect(report.stderr).toContain(
      `vcw: job "leads" (${file}) is not loaded, its definition has a problem: ${file}:11: calling.rules`,
    );
    const validate = await runCli(
      ["validate", MIXED, "--job", "leads", "--errors", join(tempDir("vcw-lookup-out-"), "e.csv")],
      env,
    );
    expect(validate.stderr).toContain(`${file}:11: calling.rules`);
  }, 120_000);

  it("vcw import --job and vcw campaigns --job name the file too", async () => {
    const { file, env } = jobsWith(["calling:", "  rules: uk"]);
    const said = `vcw: job "leads" (${file}) is not loaded, its definition has a problem: ${file}:11: calling.rules`;
    const imported = await runCli(["import", MIXED, "--job", "leads"], env, 60_000);
    expect(imported.code).not.toBe(0);
    expect(imported.stderr).toContain(said);
    const campaigns = await runCli(["campaigns", "--job", "leads"], env, 60_000);
    expect(campaigns.code).toBe(2);
    expect(campaigns.stderr).toContain(said);
  }, 120_000);

  it("a job that is nowhere is still 'no job named', with the files that could not be loaded", async () => {
    const { file, env } = jobsWith(["calling:", "  rules: uk"]);
    const r = await runCli(["preview", MIXED, "--job", "nope"], env, 60_000);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `no job named "nope" in ${env.VCW_JOBS_DIR} (jobs: other); not loaded, with problems: ${file}`,
    );
  }, 60_000);

  it("a single value where a list is meant is read as that list: rules: us, sinks: log", async () => {
    const { env } = jobsWith(["calling:", "  rules: us", "summaries:", "  sinks: log"]);
    const check = await runCli(["jobs", "check", "--json"], env, 60_000);
    expect(check.code, check.stderr).toBe(0);
    expect(JSON.parse(check.stdout).problems).toEqual([]);
    const preview = await runCli(["preview", MIXED, "--job", "leads", "--json"], env, 60_000);
    expect(preview.code, preview.stderr).toBe(0);
    const plan = JSON.parse(preview.stdout) as { campaigns: { rules: string[] }[] };
    expect(plan.campaigns.length).toBeGreaterThan(0);
    expect(new Set(plan.campaigns.flatMap((c) => c.rules).map((r) => r.split(":")[0]))).toEqual(
      new Set(["us"]),
    );
  }, 120_000);
});
