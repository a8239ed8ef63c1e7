import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, inject, it } from "vitest";
import { runCli } from "../support/cli.ts";
import { tempDir, writeFixture } from "../support/files.ts";

const run = promisify(execFile);
const dir = tempDir("vcw-conventions-");
const jobs = join(dir, "jobs");
mkdirSync(jobs);
writeFixture(
  jobs,
  "gb-leads.yaml",
  "name: gb-leads\ninbox: inbox/gb\nsegment: { name: gb }\ncontacts:\n  country: GB\n  mapping: { phone: Handy }\n",
);
const file = writeFixture(dir, "leads.csv", "Name,Handy,Phone\nAna,07911 123456,+14155550101\n");
const env = { VCW_JOBS_DIR: jobs };
const { version } = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));

describe("CLI conventions", () => {
  it("--version prints the package's version", async () => {
    const r = await runCli(["--version"]);
    expect([r.code, r.stdout.trim()]).toEqual([0, version]);
  });

  it.each([
    [["no-such-command"], /unknown command 'no-such-command'/],
    [["status", "--bogus"], /unknown option '--bogus'/],
    [["validate"], /missing required argument 'file'/],
    [["completion", "fish"], /Allowed choices are bash, zsh/],
  ])("a usage error exits 2: %j", async (args, message) => {
    const r = await runCli(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });

  it("validate --job reads as the job does: its country and mapping", async () => {
    const r = await runCli(
      ["validate", file, "--job", "gb-leads", "--json", "--errors", join(dir, "e.csv")],
      env,
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      valid: 1,
      columns: { phone: "Handy" },
      country: { code: "GB", from: "job gb-leads" },
    });
    const text = await runCli(["validate", file, "--job", "gb-leads", "--errors", join(dir, "e.csv")], env);
    expect(text.stdout).toContain("country    GB (job gb-leads)");
  });

  it("validate without --job or --country says no country was assumed; a flag overrides the job", async () => {
    const none = await runCli(["validate", file, "--errors", join(dir, "e.csv")], env);
    expect(none.stdout).toContain("country    none assumed: numbers need their +country code");
    const flag = await runCli(
      ["validate", file, "--job", "gb-leads", "--country", "US", "--json", "--errors", join(dir, "e.csv")],
      env,
    );
    expect(JSON.parse(flag.stdout).country).toEqual({ code: "US", from: "--country" });
    const unknown = await runCli(["validate", file, "--job", "nope"], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no job named "nope"');
  });

  it("contact --job reads a national number in the job's country", async () => {
    const redisEnv = {
      ...env,
      REDIS_URL: inject("redisUrl"),
      VCW_PREFIX: `vcw-test-${randomBytes(4).toString("hex")}`,
    };
    const r = await runCli(["contact", "07911 123456", "--job", "gb-leads", "--json"], redisEnv);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ phone: "+447911123456", suppressed: false });
    const bare = await runCli(["contact", "07911 123456"], redisEnv);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain("use +country format, --country or --job");
  });

  it("jobs check --json lists the jobs and their problems", async () => {
    const r = await runCli(["jobs", "check", jobs, "--json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      jobs: [{ file: join(jobs, "gb-leads.yaml"), name: "gb-leads", inbox: "inbox/gb" }],
      problems: [],
    });
  });

  it("completion bash completes commands, subcommands and flags in a real bash", async () => {
    const script = join(dir, "vcw.bash");
    writeFileSync(script, (await runCli(["completion", "bash"])).stdout);
    const complete = async (...words: string[]) =>
      (
        await run("bash", [
          "-c",
          `source ${script}; COMP_WORDS=(${words.map((w) => `'${w}'`).join(" ")}); COMP_CWORD=${words.length - 1}; _vcw; echo "\${COMPREPLY[@]}"`,
        ])
      ).stdout.trim();
    expect(await complete("vcw", "sta")).toBe("start status");
    expect(await complete("vcw", "suppress", "")).toBe("add remove list import");
    expect((await complete("vcw", "validate", "--j")).split(" ")).toEqual(["--job", "--json"]);
    const zsh = (await runCli(["completion", "zsh"])).stdout;
    expect(zsh).toMatch(/^#compdef vcw\n/);
    expect(zsh).toContain("bashcompinit");
  });
});
