import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { loadJobs } from "../../src/config/load-jobs.ts";
import { type Daemon, startDaemon } from "../../src/daemon/daemon.ts";
import { redisKeys } from "../../src/lib/redis-keys.ts";
import type { ReportModel } from "../../src/pipeline/reports/model.ts";
import { type CampaignStore, createCampaignStore } from "../../src/pipeline/stores/campaign-store.ts";
import { idempotencyKey } from "../../src/queue/deliveries.ts";
import { ticksBetween } from "../../src/queue/report-scheduler.ts";
import { runCli } from "../support/cli.ts";
import { contactsCsv, drop, quietLogger, testSettings, waitFor } from "../support/daemon.ts";
import { tempDir } from "../support/files.ts";
import { validAssistant, validDialer } from "../support/fixtures.ts";
import { useRedis } from "../support/redis.ts";
import { useSimulator } from "../support/simulator.ts";
import { startSmtpServer } from "../support/smtp.ts";

const SMTP_PASSWORD = "smtp-SECRET-e2e-5b1f";
const CRON = "*/3 * * * * *";

describe("scheduled reports from a running daemon", () => {
  const t = useSimulator({
    timeScale: 600,
    callModel: {
      outcomes: { completed: 50, "no-answer": 25, busy: 0, voicemail: 0, failed: 0, "opted-out": 25 },
    },
  });
  const { redis } = useRedis();
  let assistant: string;
  let dialerId: string;
  let daemon: Daemon | undefined;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

  beforeAll(async () => {
    assistant = `Rae ${randomBytes(3).toString("hex")}`;
    await t.client.assistants.create(validAssistant({ name: assistant }));
    dialerId = (await t.client.dialers.create(validDialer())).id!;
    smtp = await startSmtpServer({ user: "vcw", password: SMTP_PASSWORD });
  });
  afterEach(async () => {
    await daemon?.close();
    daemon = undefined;
  });
  afterAll(() => smtp.close());

  /** A job file `<name>.yaml` whose campaigns call in the simulator at once, with one report (a YAML flow mapping). */
  const writeReportJob = (jobs: string, name: string, inbox: string, report: string) =>
    writeFileSync(
      join(jobs, `${name}.yaml`),
      [
        `name: ${name}`,
        `inbox: ${inbox}`,
        `segment: { name: ${name} }`,
        "contacts: { country: US }",
        "campaign:",
        `  assistant: { name: ${assistant} }`,
        `  dialer: { id: ${dialerId} }`,
        "  start: asap",
        'polling: { schedule: "* * * * * *" }',
        "reports:",
        `  - ${report}`,
      ].join("\n"),
    );
  /** The job's campaign, once it has finished. */
  const finishedCampaign = (store: CampaignStore, name: string) =>
    waitFor(
      async () => {
        const [id] = await store.allOf(name);
        const s = id ? await store.get(id) : undefined;
        return s?.info.state === "finished" ? s : undefined;
      },
      40_000,
      "the campaign finished",
    );

  it("e-mails the report with the figures of the campaign it ran; a tick missed while stopped comes once after a restart", async () => {
    const home = tempDir("vcw-rep-");
    const inbox = join(home, "inbox");
    const jobs = join(home, "jobs");
    mkdirSync(jobs);
    const name = `rep-${randomBytes(3).toString("hex")}`;
    writeReportJob(
      jobs,
      name,
      inbox,
      `{ cron: "${CRON}", period: day, timezone: America/Los_Angeles, sinks: [mail, files] }`,
    );
    writeFileSync(
      join(jobs, "sinks.yaml"),
      [
        "sinks:",
        "  mail: { type: email, urlEnv: VCW_TEST_SMTP_URL, from: vcw@example.com, to: [manager@example.com] }",
        `  files: { type: file, dir: ${join(home, "out")} }`,
      ].join("\n"),
    );
    const settings = testSettings(home, t.sim.url, { VCW_DELIVERY_BACKOFF_MS: "200" });
    process.env.VCW_TEST_SMTP_URL = smtp.url;
    const keys = redisKeys(settings.prefix.value);
    const store = createCampaignStore(redis, keys);
    const start = async () => {
      daemon = await startDaemon({ settings, logger: quietLogger(), watch: true, work: true });
      await daemon.ready;
    };
    await start();
    drop(inbox, "tuesday.csv", contactsCsv(12, { from: 51_000 }));
    const finished = await finishedCampaign(store, name);
    const reached = finished.totals.byStatus.completed ?? 0;
    const optedOut = finished.totals.byStatus["opted-out"] ?? 0;
    // Each call is in one report (periods follow each other, issue 32 item 8): the reports made
    // once the campaign ended hold all 12 calls between them, and the file in one of them.
    const figure = (text: string, label: string) =>
      Number(new RegExp(`${label}: (\\d+)`).exec(text)?.[1] ?? 0);
    const reports = () => [...new Map(smtp.received.map((m) => [m.messageId, m.text ?? ""])).values()];
    const sum = (label: string) => reports().reduce((n, text) => n + figure(text, label), 0);
    await waitFor(
      () => (sum("Calls ended") === 12 ? true : undefined),
      20_000,
      "report e-mails with the campaign's 12 calls",
    );
    const withCalls = reports().filter((text) => figure(text, "Calls ended") > 0);
    for (const text of withCalls) expect(text).toContain(finished.info.name);
    expect(sum("Contacts called")).toBe(12);
    expect(sum("Reached")).toBe(reached);
    expect(sum("Opted out")).toBe(optedOut);
    // The file's report may land a moment after the calls' (another tick).
    await waitFor(
      () =>
        reports().some((text) => text.includes("Files: 1 file imported, 0 rejected; 12 rows read, 12 valid"))
          ? true
          : undefined,
      20_000,
      "the report with the imported file",
    );
    const mail = smtp.received.find((m) => figure(m.text ?? "", "Calls ended") > 0)!;
    expect(mail.attachments.filter((a) => a.contentType === "image/png" && a.cid)).toHaveLength(3);
    expect(String(mail.html)).toContain(`cid:calls-by-hour@vcw`);
    expect(JSON.stringify(mail.headers)).not.toContain(SMTP_PASSWORD);

    // The same report on demand.
    const env = { REDIS_URL: inject("redisUrl"), VCW_PREFIX: settings.prefix.value, VCW_JOBS_DIR: jobs };
    const cli = await runCli(
      ["report", "--job", name, "--since", "24h", "--json", "--html", join(home, "r.html")],
      env,
    );
    expect(cli.stderr).toBe("");
    const model = JSON.parse(cli.stdout);
    expect(model.totals).toMatchObject({
      contactsCalled: 12,
      calls: 12,
      reached,
      optedOut,
      meetings: finished.totals.meetings,
    });
    expect(model.period.to).toBeDefined();
    expect(model.previous.totals.calls).toBe(0);
    expect(model.campaigns.map((c: { name: string }) => c.name)).toEqual([finished.info.name]);
    expect(readFileSync(join(home, "r.html"), "utf8").match(/<svg/g)).toHaveLength(3);
    const byName = await runCli(["report", finished.info.name, "--json"], env);
    expect(JSON.parse(byName.stdout)).toMatchObject({ kind: "final", contacts: 12 });
    const listed = await runCli(["campaigns", "--job", name, "--state", "finished", "--json"], env);
    expect(JSON.parse(listed.stdout)).toMatchObject([
      { id: finished.info.id, name: finished.info.name, state: "finished", contacts: 12, reached },
    ]);
    // As a person reads them: times with their zone (ISO only in --json), reach as every report says it.
    const iso = /\d{4}-\d\d-\d\dT\d\d:\d\d/;
    const reach = `${reached} of 12 contacts (`;
    const text = await runCli(["report", "--job", name, "--since", "24h"], env);
    expect(text.stdout).toContain(`Job ${name}: report for the last 24 hours`);
    expect(text.stdout).toContain(`Reached: ${reach}`);
    expect(text.stdout).toMatch(/Made \d{4}-\d\d-\d\d \d\d:\d\d UTC\./); // the job's zone: no window, UTC
    expect(text.stdout).not.toMatch(iso);
    const one = await runCli(["report", finished.info.name], env);
    expect(one.stdout).toMatch(/^Start \d{4}-\d\d-\d\d \d\d:\d\d [A-Z]{3,4}$/m);
    expect(one.stdout).toContain(`Reached ${reach}`);
    expect(one.stdout).not.toMatch(iso);
    const lines = await runCli(["campaigns", "--job", name], env);
    expect(lines.stdout).toContain(`12 contacts, 12 done, reached ${reach}`);
    expect(lines.stdout).not.toMatch(iso);

    // Stopped over a tick, started again: the missed tick's report comes, once.
    await daemon!.close();
    daemon = undefined;
    const stoppedAt = Date.now();
    // A tick passes while it is stopped (one every 3 s).
    const missed = await waitFor(
      () => {
        const ticks = ticksBetween(CRON, "America/Los_Angeles", stoppedAt, Date.now(), 7);
        return ticks.length >= 1 ? ticks : undefined;
      },
      20_000,
      "a tick while stopped",
    );
    expect(missed.length).toBeGreaterThanOrEqual(1);
    await start();
    const ids = missed.map(
      (tick) => `<${idempotencyKey("mail", `report:${name}:0`, "report", tick / 1000)}@vcw>`,
    );
    await waitFor(
      () => (ids.every((id) => smtp.received.some((m) => m.messageId === id)) ? true : undefined),
      20_000,
      "the missed reports",
    );
    await sleep(1_000);
    for (const id of ids) expect(smtp.received.filter((m) => m.messageId === id)).toHaveLength(1);
    const all = smtp.received.map((m) => m.messageId);
    expect(new Set(all).size).toBe(all.length);
    expect(existsSync(join(home, "out"))).toBe(true);
  }, 150_000);

  it("a job file written for the digest (a reports entry without period) loads and sends since-last reports to a file sink", async () => {
    const home = tempDir("vcw-rep-plain-");
    const inbox = join(home, "inbox");
    const jobs = join(home, "jobs");
    const out = join(home, "out");
    mkdirSync(jobs);
    const name = `plain-${randomBytes(3).toString("hex")}`;
    writeReportJob(jobs, name, inbox, '{ cron: "*/2 * * * * *", sinks: [files] }');
    writeFileSync(join(jobs, "sinks.yaml"), `sinks:\n  files: { type: file, dir: ${out} }\n`);
    const loaded = await loadJobs(jobs);
    expect(loaded.problems).toEqual([]);
    expect(loaded.jobs[0]!.job.reports).toEqual([
      { cron: "*/2 * * * * *", sinks: ["files"], period: "since-last" },
    ]);
    const settings = testSettings(home, t.sim.url);
    const store = createCampaignStore(redis, redisKeys(settings.prefix.value));
    daemon = await startDaemon({ settings, logger: quietLogger(), watch: true, work: true });
    await daemon.ready;
    drop(inbox, "plain.csv", contactsCsv(6, { from: 52_000 }));
    const finished = await finishedCampaign(store, name);
    // One report file per tick, each since the one before; the 6 calls in them once each.
    const reports = () =>
      (existsSync(out) ? readdirSync(out) : [])
        .filter((f) => f.startsWith(`${name}.since-last-`) && f.endsWith(".json"))
        .map((f) => JSON.parse(readFileSync(join(out, f), "utf8")) as ReportModel)
        .sort((a, b) => a.period.to.localeCompare(b.period.to));
    await waitFor(
      () => (reports().reduce((n, r) => n + r.totals.calls, 0) === 6 ? true : undefined),
      20_000,
      "report files with the campaign's 6 calls",
    );
    const sent = reports();
    for (const [k, r] of sent.entries()) {
      expect(r).toMatchObject({ kind: "report", job: name, period: { label: "since-last" } });
      if (k > 0) expect(r.period.from).toBe(sent[k - 1]!.period.to);
    }
    const withCalls = sent.filter((r) => r.totals.calls > 0);
    for (const r of withCalls) expect(r.campaigns.map((c) => c.name)).toContain(finished.info.name);
    expect(existsSync(join(out, `${name}.digest.jsonl`))).toBe(false);
  }, 90_000);
});
