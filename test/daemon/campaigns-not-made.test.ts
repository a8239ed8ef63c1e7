import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import type { Overview } from "../../src/http/overview.ts";
import { variantOf } from "../../src/pipeline/variant-assignment.ts";
import { useCallingDaemon } from "../support/calling-daemon.ts";
import { runCli } from "../support/cli.ts";
import { contactsCsv, drop, phoneOf, testSettings, waitFor } from "../support/daemon.ts";
import { tempDir } from "../support/files.ts";
import { API_KEY } from "../support/fixtures.ts";

const CONTACTS = 20;

describe("a variant naming an assistant the service does not have (issue 40)", () => {
  // 600 simulated seconds a real second: variant a's calls end in about a second.
  const h = useCallingDaemon({ timeScale: 600 });

  it("is flagged by jobs check and preview; its campaign's failure is seen with its reason everywhere a manager looks", async () => {
    const nobody = `Nobody ${randomBytes(3).toString("hex")}`;
    const home = tempDir("vcw-not-made-");
    const inbox = join(home, "inbox");
    const jobs = join(home, "jobs");
    mkdirSync(jobs);
    const name = `ab-${randomBytes(3).toString("hex")}`;
    const jobFile = join(jobs, "ab.yaml");
    writeFileSync(
      jobFile,
      [
        `name: ${name}`,
        `inbox: ${inbox}`,
        `segment: { name: ${name} }`,
        "contacts: { country: US }",
        "campaign:",
        "  variants:",
        `    - { name: a, assistant: { name: ${JSON.stringify(h.made.assistant)} }, share: 1 }`,
        `    - { name: b, assistant: { name: ${JSON.stringify(nobody)} }, share: 1 }`,
        `  dialer: { id: ${h.made.dialerId} }`,
        "  start: asap",
        'polling: { schedule: "* * * * * *" }',
        "reports:",
        '  - { cron: "0 8 * * *", period: day, sinks: [log] }',
      ].join("\n"),
    );
    // The campaigns start at once: not about the settle wait.
    const settings = testSettings(home, h.t.sim.url, { VCW_HTTP_ADDR: "127.0.0.1:0", VCW_SETTLE_MS: "0" });
    const env = {
      REDIS_URL: inject("redisUrl"),
      VCW_PREFIX: settings.prefix.value,
      VCW_JOBS_DIR: jobs,
      VCS_BASE_URL: h.t.sim.url,
      VCS_API_KEY: API_KEY,
      VCW_RESOURCES_DIR: join(home, "resources"),
    };
    const csv = contactsCsv(CONTACTS, { from: 30_000 });
    const file = join(home, "leads.csv");
    writeFileSync(file, csv);
    const toB = Array.from({ length: CONTACTS }, (_, i) => phoneOf(30_000 + i)).filter(
      (p) =>
        variantOf(name, p, [
          { name: "a", share: 1 },
          { name: "b", share: 1 },
        ]) === "b",
    ).length;
    expect(toB).toBeGreaterThan(0);

    // Before anything is dropped: jobs check and preview name the variant's field and line.
    const field = `${jobFile}:8: campaign.variants[1].assistant: the service has no assistant "${nobody}" (it has `;
    const check = await runCli(["jobs", "check", jobs], env);
    expect(check.code).toBe(1);
    expect(check.stderr).toContain(`fail ${field}`);
    expect(check.stderr).toContain(`"${h.made.assistant}"`);
    expect(check.stderr.split("\n").filter((l) => l.startsWith("fail "))).toHaveLength(1);
    const preview = await runCli(["preview", file, "--job", name], env);
    expect(preview.code).toBe(1);
    expect(preview.stdout).toMatch(
      new RegExp(
        `^problem: ${field.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}.*\\): variant b's campaigns would fail$`,
        "m",
      ),
    );
    const previewJson = JSON.parse((await runCli(["preview", file, "--job", name, "--json"], env)).stdout);
    expect(previewJson.problems).toEqual([expect.stringContaining("campaign.variants[1].assistant")]);

    // Dropped all the same: a's campaign calls, b's fails with a reason that names the variant's field.
    const daemon = await h.start(settings);
    drop(inbox, "leads.csv", csv);
    const read = async () => (await (await fetch(`${daemon.http!.url}/api/overview`)).json()) as Overview;
    const overview = await waitFor(
      async () => {
        const o = await read();
        return o.campaignsNotMade.length > 0 && o.recentFiles.length > 0 ? o : undefined;
      },
      30_000,
      "variant b's campaign not made, on /api/overview",
    );
    expect(overview.campaignsNotMade).toEqual([
      expect.objectContaining({
        job: name,
        file: "leads.csv",
        variant: "b",
        outcome: "failed",
        contacts: toB,
        reason: `no assistant is named "${nobody}": create it, or correct campaign.variants[1].assistant in the job (by name or by id)`,
      }),
    ]);
    // The file is no plain success: one of its campaigns was not made.
    expect(overview.recentFiles[0]).toMatchObject({
      file: "leads.csv",
      outcome: "imported",
      campaignsNotMade: 1,
    });

    // The report: a row with its reason, and a problem.
    const report = JSON.parse(
      (await runCli(["report", "--job", name, "--since", "1h", "--json"], env)).stdout,
    );
    expect(report.campaignsNotMade).toEqual([
      expect.objectContaining({ variant: "b", outcome: "failed", contacts: toB }),
    ]);
    expect(report.problems.map((p: { message: string }) => p.message)).toContainEqual(
      expect.stringMatching(
        new RegExp(`^1 campaign not made \\(${toB} contacts? not called\\), failed: no assistant is named`),
      ),
    );
    const text = (await runCli(["report", "--job", name, "--since", "1h"], env)).stdout;
    expect(text).toContain("Campaigns not made (1):");
    expect(text).toMatch(/^Next: the next report \d{4}-\d\d-\d\d 08:00 UTC\.$/m);

    // vcw experiment status: the variant that got nobody (though given its share), and why.
    const status = await runCli(["experiment", "status", name], env);
    expect(status.stdout).toMatch(
      new RegExp(
        `^- b: got nobody \\(${toB} given it, planned 50%\\); 1 campaign not made \\(${toB} contacts? not called\\): failed: no assistant is named "${nobody}"`,
        "m",
      ),
    );
    // vcw status: the campaign not made, in words.
    const vcwStatus = await runCli(["status"], env);
    expect(vcwStatus.stdout).toMatch(/not made campaign .*\(variant b\)/);
    expect(vcwStatus.stdout).toContain("campaign.variants[1].assistant");
  }, 120_000);
});
