import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli.ts";
import { tempDir } from "../support/files.ts";

const job = (name: string, contacts: string, window: string, calling = "") =>
  `name: ${name}\ninbox: inbox/${name}\nsegment: { name: s }\ncontacts: ${contacts}\ncampaign:\n  assistant: { id: ast_1 }\n  dialer: { id: dlr_1 }\n  start: { window: { days: [mon], from: '09:00', to: '17:00', timezone: callee${window} } }\n${calling}`;

/** Issue 29: the old places of the fallback zone and the cooldown are read, and vcw jobs check says where they went. */
describe("vcw jobs check: old spellings of where and when", () => {
  it("warns of each with its new place (exit 0); both spellings disagreeing fail", async () => {
    const jobs = join(tempDir("vcw-jobs-spellings-"), "jobs");
    mkdirSync(jobs);
    writeFileSync(
      join(jobs, "old.yaml"),
      job("old", "{ recallAfterDays: 0 }", ", fallbackTimezone: Europe/London"),
    );
    writeFileSync(
      join(jobs, "new.yaml"),
      job(
        "new",
        "{}",
        "",
        "calling: { location: { fallbackTimezone: Europe/London }, caps: { recallAfterDays: 0 } }\n",
      ),
    );
    const env = { VCS_BASE_URL: "", VCW_RESOURCES_DIR: join(jobs, "none") };
    const r = await runCli(["jobs", "check", jobs], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/ok {3}.*old\.yaml/);
    expect(r.stdout).toMatch(/ok {3}.*new\.yaml/);
    const warnings = r.stderr.split("\n").filter((l) => l.includes("(read as such)"));
    expect(warnings).toEqual([
      expect.stringMatching(
        /^warn .*old\.yaml:8: campaign\.start\.window\.fallbackTimezone: is now calling\.location\.fallbackTimezone \(read as such\)$/,
      ),
      expect.stringMatching(
        /^warn .*old\.yaml:4: contacts\.recallAfterDays: is now calling\.caps\.recallAfterDays \(read as such\)$/,
      ),
    ]);
    const json = JSON.parse((await runCli(["jobs", "check", jobs, "--json"], env)).stdout);
    expect(
      json.warnings
        .filter((w: { kind: string }) => w.kind === "old_spelling")
        .map((w: { job: string }) => w.job),
    ).toEqual(["old", "old"]);

    writeFileSync(
      join(jobs, "both.yaml"),
      job(
        "both",
        "{ recallAfterDays: 2 }",
        ", fallbackTimezone: Europe/London",
        "calling: { caps: { recallAfterDays: 1 } }\n",
      ),
    );
    const failed = await runCli(["jobs", "check", jobs], env);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(
      /fail .*both\.yaml:4: contacts\.recallAfterDays: is now calling\.caps\.recallAfterDays, which the file gives too with another value/,
    );
  }, 60_000);
});
