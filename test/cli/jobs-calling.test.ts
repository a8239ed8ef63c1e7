import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli.ts";
import { tempDir } from "../support/files.ts";

const job = (name: string, start: string, rules: string) =>
  `name: ${name}\ninbox: inbox/${name}\nsegment: { name: s }\ncampaign:\n  assistant: { id: ast_1 }\n  dialer: { id: dlr_1 }\n  start: ${start}\ncalling:\n  rules: ${rules}\n`;

/** Issue 31: `rules: [gb]` with `start: asap` was accepted silently, and a UK callee planned at 03:00. */
describe("vcw jobs check: calling rules that set no hours, and no window", () => {
  it("warns of gb (or custom without hours) with start asap; not when the job has a window", async () => {
    const jobs = join(tempDir("vcw-jobs-calling-"), "jobs");
    mkdirSync(jobs);
    writeFileSync(join(jobs, "uk.yaml"), job("uk", "asap", "[gb]"));
    writeFileSync(join(jobs, "custom.yaml"), job("custom", "{ at: '2026-12-01T09:00:00Z' }", "[custom]"));
    writeFileSync(
      join(jobs, "windowed.yaml"),
      job(
        "windowed",
        "{ window: { days: [mon], from: '09:00', to: '17:00', timezone: callee, fallbackTimezone: Europe/London } }",
        "[gb]",
      ),
    );
    writeFileSync(join(jobs, "us.yaml"), job("us", "asap", "[us]"));
    const env = { VCS_BASE_URL: "", VCW_RESOURCES_DIR: join(jobs, "none") };
    const r = await runCli(["jobs", "check", jobs], env);
    expect(r.code).toBe(0);
    const warnings = r.stderr.split("\n").filter((l) => l.includes("sets no calling hours"));
    expect(warnings).toHaveLength(2);
    expect(warnings.find((w) => w.includes("uk.yaml"))).toMatch(
      /job uk: calling\.rules gb sets no calling hours \(no UK statute does: the job's window is the rule\), and the campaign has start: asap/,
    );
    expect(warnings.find((w) => w.includes("custom.yaml"))).toMatch(
      /calling\.rules custom sets no calling hours.*a fixed start/,
    );
    const json = JSON.parse((await runCli(["jobs", "check", jobs, "--json"], env)).stdout);
    expect(
      json.warnings
        .filter((w: { kind: string }) => w.kind === "calling_hours")
        .map((w: { job: string }) => w.job)
        .sort(),
    ).toEqual(["custom", "uk"]);
  }, 60_000);
});
