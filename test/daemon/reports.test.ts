import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { type Daemon, startDaemon } from "../../src/daemon/daemon.ts";
import { redisKeys } from "../../src/lib/redis-keys.ts";
import { createCampaignStore } from "../../src/pipeline/results/campaign-store.ts";
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

  it("e-mails the report with the figures of the campaign it ran; a tick missed while stopped comes once after a restart", async () => {
    const home = tempDir("vcw-rep-");
    const inbox = join(home, "inbox");
    const jobs = join(home, "jobs");
    mkdirSync(jobs);
    const name = `rep-${randomBytes(3).toString("hex")}`;
    writeFileSync(
      join(jobs, "rep.yaml"),
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
        `  - { cron: "${CRON}", period: day, timezone: America/Los_Angeles, sinks: [mail, files] }`,
      ].join("\n"),
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
    const finished = await waitFor(
      async () => {
        const [id] = await store.allOf(name);
        const s = id ? await store.get(id) : undefined;
        return s?.info.state === "finished" ? s : undefined;
      },
      40_000,
      "the campaign finished",
    );
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
    await sleep(3_500);
    const missed = ticksBetween(CRON, "America/Los_Angeles", stoppedAt, Date.now(), 7);
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
});
