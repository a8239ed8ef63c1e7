import { randomBytes } from "node:crypto";
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { cliEnv, runCli, spawnVcw } from "../support/cli.ts";
import { contactsCsv, phoneOf, summaryOf, waitFor, writeJob } from "../support/daemon.ts";
import { tempDir } from "../support/files.ts";
import { useSimulator } from "../support/simulator.ts";

describe("vcw import, status and start", () => {
  const t = useSimulator();
  const envFor = (home: string) => cliEnv(home, t.sim.url);

  it("vcw import --segment imports a file in the foreground; run again, it creates nothing", async () => {
    const home = tempDir("vcw-cli-");
    const env = envFor(home);
    const file = join(home, "people.csv");
    writeFileSync(file, contactsCsv(12, { from: 300, extra: ["12,Too Short,"] }));
    const segment = `cli-${randomBytes(3).toString("hex")}`;
    const first = await runCli(["import", file, "--segment", segment, "--country", "US", "--json"], env);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    const summary = JSON.parse(first.stdout);
    expect(summary).toMatchObject({ status: "imported", created: 12, known: 0 });
    expect(summary.totals).toMatchObject({ total: 13, valid: 12, rejected: 1 });
    expect(summary.errorsFile).toBe(`${file}.errors.csv`);
    // The error report is vcw's own: a second run replaces it (issue 17; test/cli/import-rerun.test.ts).
    const rerun = await runCli(["import", file, "--segment", segment, "--country", "US"], env);
    expect(rerun.code).toBe(0);
    const again = JSON.parse(
      (await runCli(["import", file, "--segment", segment, "--country", "US", "--json", "--force"], env))
        .stdout,
    );
    expect(again).toMatchObject({ created: 0, known: 12 });
    const phones = (await t.client.contacts.list(summary.segment.id)).map((c) => c.phone);
    expect(phones.sort()).toEqual(Array.from({ length: 12 }, (_, i) => phoneOf(300 + i)).sort());
  });

  it("vcw import --job knows content it imported before; the text summary is readable", async () => {
    const home = tempDir("vcw-cli-");
    const env = envFor(home);
    writeJob(join(home, "jobs"), "crm", join(home, "inbox"), `crm-${randomBytes(3).toString("hex")}`);
    const file = join(home, "crm.csv");
    writeFileSync(file, contactsCsv(5, { from: 400 }));
    const first = await runCli(["import", file, "--job", "crm"], env);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/rows\s+5 = 5 valid \+ 0 rejected/);
    expect(first.stdout).toMatch(/contacts\s+5 created, 0 already there/);
    const second = await runCli(["import", file, "--job", "crm"], env);
    expect(second.stdout).toMatch(/the same content was imported before/);
  });

  it("vcw import and the daemon give the same result for the same file, the suppression list included", async () => {
    const home = tempDir("vcw-cli-");
    const env = envFor(home);
    const tag = randomBytes(3).toString("hex");
    writeJob(join(home, "jobs"), "viacli", join(home, "inbox-cli"), `via-cli-${tag}`);
    writeJob(join(home, "jobs"), "viadaemon", join(home, "inbox-daemon"), `via-daemon-${tag}`);
    const text = contactsCsv(8, { from: 700, extra: ["12,Too Short,", `${phoneOf(701).slice(2)},Again,`] });
    expect((await runCli(["suppress", "add", phoneOf(703), phoneOf(705)], env)).code).toBe(0);

    const file = join(home, "leads.csv");
    writeFileSync(file, text);
    const cli = JSON.parse((await runCli(["import", file, "--job", "viacli", "--json"], env)).stdout);
    const daemon = spawnVcw(["start"], env);
    try {
      mkdirSync(join(home, "inbox-daemon"), { recursive: true });
      writeFileSync(join(home, "inbox-daemon", "leads.csv"), text);
      const summary = await waitFor(() => summaryOf(join(home, "inbox-daemon"), "leads.csv"), 30_000);
      const same = (s: typeof summary) => ({
        totals: s.totals,
        created: s.created,
        known: s.known,
        failed: s.failed,
      });
      expect(same(summary)).toEqual(same(cli));
      expect(cli).toMatchObject({ created: 6, totals: { valid: 6, rejected: 1, duplicates: 1, skipped: 2 } });
      const reportOf = (path: string) => readFileSync(path, "utf8").split("\n").slice(1).sort();
      expect(reportOf(summary.errorsFile)).toEqual(reportOf(cli.errorsFile));
      expect(reportOf(cli.errorsFile).filter((l) => l.includes("opted_out"))).toHaveLength(2);
    } finally {
      daemon.child.kill("SIGTERM");
      await daemon.exited;
    }
  });

  it("usage errors: neither or both of --job and --segment, an unknown job", async () => {
    const home = tempDir("vcw-cli-");
    const env = envFor(home);
    const none = await runCli(["import", "x.csv"], env);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/give either --job NAME or --segment NAME/);
    const unknown = await runCli(["import", "x.csv", "--job", "nope"], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/no job named "nope"/);
  });

  it("vcw start runs on embedded defaults: the example job imports the sample CSV; status shows it; SIGTERM stops it", async () => {
    const home = tempDir("vcw-start-");
    cpSync("jobs", join(home, "jobs"), { recursive: true });
    const env = { REDIS_URL: inject("redisUrl"), VCW_PREFIX: `vcw-test-${randomBytes(4).toString("hex")}` };
    const daemon = spawnVcw(["start"], env, home);
    try {
      await waitFor(() => (daemon.logs().includes("daemon running") ? true : undefined), 20_000, "daemon up");
      expect(daemon.logs()).toMatch(/embedded simulator started/);
      expect(daemon.logs()).toMatch(
        /apiKey: not set: the embedded simulator's key is the home's \(simulator\.key\)/,
      );
      const inbox = join(home, "inbox", "example-leads");
      mkdirSync(inbox, { recursive: true });
      cpSync("jobs/samples/example-leads.csv", join(inbox, "example-leads.csv"));
      const summary = await waitFor(() => summaryOf(inbox, "example-leads.csv"), 20_000, "sample imported");
      expect(summary).toMatchObject({ status: "imported", created: 6 });
      expect(summary.totals).toMatchObject({ total: 10, valid: 6, rejected: 3, duplicates: 1 });
      const status = await runCli(["status", "--json"], env, 30_000, home);
      expect(JSON.parse(status.stdout)).toMatchObject({
        queue: { completed: 1, failed: 0 },
        folders: [{ job: "example-leads", waiting: 0, processing: 0 }],
      });
    } finally {
      daemon.child.kill("SIGTERM");
      await daemon.exited;
    }
    expect(daemon.child.exitCode).toBe(0);
    expect(daemon.logs()).toMatch(/"msg":"stopped"/);
  });
});

describe("vcw demo, report and suppress", () => {
  it("npm run demo: the sample goes through import, campaign, polling, summary and results CSV", async () => {
    const dir = tempDir("vcw-demo-");
    const env = { REDIS_URL: inject("redisUrl") };
    const demo = await runCli(["demo", "--dir", dir], env, 90_000);
    expect(demo.stderr).toBe("");
    expect(demo.code).toBe(0);
    expect(demo.stdout).toMatch(/finished, 100% complete/);
    expect(demo.stdout).toMatch(/Contacts 6; calls by status:/);
    const csv = /results CSV: (.+\.results\.csv)$/m.exec(demo.stdout)![1]!;
    const rows = readFileSync(csv, "utf8").split("\r\n").filter(Boolean);
    expect(rows).toHaveLength(7);
    expect(rows[0]).toBe(
      "\uFEFFphone,first_name,last_name,status,duration_sec,sentiment,meeting_scheduled,transferred,message_sent,error,recording_url,transcript,caller_number",
    );
    expect(rows[1]).toMatch(/^'\+1/);
  });

  it("vcw suppress add/list/remove, and vcw report of an unknown campaign", async () => {
    const env = { REDIS_URL: inject("redisUrl"), VCW_PREFIX: `vcw-test-${randomBytes(4).toString("hex")}` };
    expect(
      (await runCli(["suppress", "add", "415 555 0123", "+44 7911 123456", "--country", "US"], env)).stdout,
    ).toMatch(/2 added/);
    expect(JSON.parse((await runCli(["suppress", "list", "--json"], env)).stdout)).toEqual([
      "+14155550123",
      "+447911123456",
    ]);
    expect((await runCli(["suppress", "remove", "+14155550123"], env)).stdout).toMatch(/1 removed/);
    const bad = await runCli(["suppress", "add", "12"], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/"12" is not a phone number/);
    const report = await runCli(["report", "cmp_nope"], env);
    expect(report.code).toBe(1);
    expect(report.stderr).toMatch(/no campaign cmp_nope is known/);
  });
});
