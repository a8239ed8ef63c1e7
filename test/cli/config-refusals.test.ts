import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli.ts";
import { tempDir } from "../support/files.ts";

/** A billion laughs: nine levels of nine aliases, 387 million strings once expanded. */
function aliasBomb(): string {
  const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let i = 1; i < 10; i++) {
    const name = String.fromCharCode(97 + i);
    const prev = String.fromCharCode(96 + i);
    lines.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(",")}]`);
  }
  return `${lines.join("\n")}\n`;
}

describe("files vcw refuses say which file, on stdout too with --json (issue 32, smaller list)", () => {
  it("an alias bomb among the resources: vcw apply --json names the file, on stdout and stderr, and applies nothing", async () => {
    const dir = tempDir("vcw-bomb-");
    const resources = join(dir, "resources");
    mkdirSync(resources);
    writeFileSync(join(resources, "laughs.yaml"), aliasBomb());
    const started = Date.now();
    const out = await runCli(["apply", "--json", "--dir", resources], { VCW_JOBS_DIR: join(dir, "jobs") });
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(out.code).toBe(1);
    const answer = JSON.parse(out.stdout) as { applied: boolean; error: string; problems: string[] };
    expect(answer.applied).toBe(false);
    expect(answer.error).toContain("1 problem in");
    expect(answer.problems).toHaveLength(1);
    expect(answer.problems[0]).toContain(join(resources, "laughs.yaml"));
    expect(answer.problems[0]).toMatch(/alias/i);
    expect(out.stderr).toContain(join(resources, "laughs.yaml"));
  });

  it("a LOG_LEVEL pino lacks: vcw start and vcw api refuse, naming LOG_LEVEL and the values allowed", async () => {
    for (const args of [["start"], ["api", "segments.list"]]) {
      const out = await runCli(args, { LOG_LEVEL: "verbose" });
      expect(out.code).toBe(1);
      expect(out.stderr).toContain(
        'vcw: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, not "verbose"',
      );
    }
  });

  it("an alias bomb among the jobs: vcw jobs check names the file", async () => {
    const dir = tempDir("vcw-bomb-jobs-");
    const jobs = join(dir, "jobs");
    mkdirSync(jobs);
    writeFileSync(join(jobs, "laughs.yaml"), aliasBomb());
    const out = await runCli(["jobs", "check", jobs]);
    expect(out.code).toBe(1);
    const line = out.stderr.split("\n").find((l) => l.startsWith(`fail ${join(jobs, "laughs.yaml")}`));
    expect(line).toMatch(/alias/i);
  });

  it("vcw apply --json with a folder of no resources answers on stdout", async () => {
    const dir = tempDir("vcw-none-");
    mkdirSync(join(dir, "resources"));
    const out = await runCli(["apply", "--json", "--dir", join(dir, "resources")], {
      VCW_JOBS_DIR: join(dir, "jobs"),
    });
    expect(out.code).toBe(1);
    expect(JSON.parse(out.stdout)).toMatchObject({ applied: false, problems: [] });
  });
});
