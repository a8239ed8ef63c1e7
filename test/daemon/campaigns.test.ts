import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { beforeAll, describe, expect, inject, it } from "vitest";
import type { Daemon } from "../../src/daemon/daemon.ts";
import { campaignFileBase } from "../../src/lib/campaign-file-name.ts";
import { redisKeys } from "../../src/lib/redis-keys.ts";
import type { CampaignSummary } from "../../src/pipeline/model/results.ts";
import { createSuppressionList } from "../../src/pipeline/stores/suppression.ts";
import { signature } from "../../src/sinks/webhook/webhook-sink.ts";
import { useCallingDaemon } from "../support/calling-daemon.ts";
import { runCli } from "../support/cli.ts";
import { contactsCsv, drop, phoneOf, summaryOf, testSettings, waitFor } from "../support/daemon.ts";
import { sendJson, startHttpServer, type TestServer } from "../support/http-server.ts";
import { useRedis } from "../support/redis.ts";

const SECRET = "whsec-test-9c1d7e4a2b";

describe("campaigns: created once, polled to the end, summaries to sinks", () => {
  // 600 simulated seconds a real second: a 12-contact campaign runs in about a second.
  const h = useCallingDaemon({
    timeScale: 600,
    callModel: {
      outcomes: { completed: 50, "no-answer": 25, busy: 0, voicemail: 0, failed: 0, "opted-out": 25 },
    },
  });
  const { t } = h;
  const { redis } = useRedis();
  let daemon: Daemon | undefined;
  let receiver: TestServer | undefined;

  beforeAll(() => {
    process.env.VCW_TEST_HOOK_SECRET = SECRET;
  });
  h.afterDaemons(async () => {
    await receiver?.close();
    daemon = undefined;
    receiver = undefined;
  });

  /** A job with a campaign section and sinks; returns its folders and the daemon's settings. */
  function setup(
    job: {
      followUps?: boolean;
      progress?: boolean;
      hookUrl?: string;
      env?: NodeJS.ProcessEnv;
      assistant?: string;
    } = {},
  ) {
    const { home, inbox, name } = h.callingJob({
      ...(job.assistant ? { assistant: { name: job.assistant } } : {}),
      extra: [
        "summaries:",
        "  sinks: [hook, files, log]",
        ...(job.progress ? ['  progress: "* * * * * *"'] : []),
        ...(job.followUps ? ["followUps:", "  attempts: 1", "  spacingMinutes: 0"] : []),
      ],
    });
    writeFileSync(
      join(home, "jobs", "sinks.yaml"),
      [
        "sinks:",
        "  hook:",
        "    type: webhook",
        `    url: ${job.hookUrl ?? receiver!.url.replace("/api/v1", "/hook")}`,
        "    secretEnv: VCW_TEST_HOOK_SECRET",
        "  files:",
        "    type: file",
        `    dir: ${join(home, "out")}`,
      ].join("\n"),
    );
    const settings = testSettings(home, t.sim.url, { VCW_DELIVERY_BACKOFF_MS: "200", ...job.env });
    return { home, inbox, name, settings };
  }

  const start = async (settings: ReturnType<typeof setup>["settings"]) => {
    daemon = await h.start(settings);
    return daemon;
  };

  /** The summaries the receiver accepted (200), by idempotency key, each checked against its signature. */
  function received(server: TestServer, accepted: (i: number) => boolean = () => true) {
    const byKey = new Map<string, CampaignSummary>();
    server.requests.forEach((r, i) => {
      expect(r.headers["x-vcw-signature"]).toBe(signature(SECRET, r.body));
      if (accepted(i)) byKey.set(String(r.headers["idempotency-key"]), JSON.parse(r.body));
    });
    return byKey;
  }

  it("a file in, one campaign out, polled to the end; the summary reaches the webhook (signed) and the file sink", async () => {
    receiver = await startHttpServer((_req, res) => sendJson(res, 200, { ok: true }));
    const s = setup();
    await start(s.settings);
    drop(s.inbox, "monday.csv", contactsCsv(12, { from: 90_000 }));
    const final = await waitFor(
      () => [...received(receiver!).values()].find((p) => p.kind === "final"),
      30_000,
      "final summary at the webhook",
    );
    const campaigns = (await t.client.campaigns.list()).filter((c) =>
      c.campaigns_name?.startsWith(`${s.name} `),
    );
    expect(campaigns).toHaveLength(1);
    expect(campaigns[0]!.campaigns_name).toMatch(
      new RegExp(`^${s.name} \\d{4}-\\d{2}-\\d{2} monday.csv #[0-9a-f]{8}$`),
    );
    expect(final).toMatchObject({
      contacts: 12,
      completion: 1,
      campaign: { id: campaigns[0]!.id, state: "finished" },
    });
    const statuses = Object.values(final.callsByStatus).reduce((a, b) => a + b, 0);
    expect(statuses).toBe(12);

    const out = join(s.home, "out");
    const base = campaignFileBase({ id: campaigns[0]!.id!, name: campaigns[0]!.campaigns_name! });
    // The file sink is another delivery: it may land a moment after the webhook's.
    await waitFor(
      () =>
        existsSync(join(out, `${base}.events.jsonl`)) &&
        readFileSync(join(out, `${base}.events.jsonl`), "utf8").includes('"kind":"final"')
          ? true
          : undefined,
      20_000,
      "final summary in the file sink",
    );
    const csv = readFileSync(join(out, `${base}.results.csv`), "utf8");
    expect(csv.split("\r\n").filter(Boolean)).toHaveLength(13);
    expect(csv).toContain(`'${phoneOf(90_000)}`);
    const events = readFileSync(join(out, `${base}.events.jsonl`), "utf8")
      .trim()
      .split("\n");
    expect(events.map((l) => JSON.parse(l).payload.kind)).toContain("final");

    // vcw report reads the same results.
    const report = await runCli(["report", campaigns[0]!.id!, "--json"], {
      REDIS_URL: inject("redisUrl"),
      VCW_PREFIX: s.settings.prefix.value,
    });
    expect(JSON.parse(report.stdout)).toMatchObject({ kind: "final", contacts: 12, completion: 1 });

    // Dropped again: nothing new, no second campaign. A file without a valid contact gets none.
    drop(s.inbox, "monday-again.csv", contactsCsv(12, { from: 90_000 }));
    drop(s.inbox, "all-bad.csv", "Phone,First Name\n12,Too short\nnope,Not a number\n");
    const bad = await waitFor(() => summaryOf(s.inbox, "all-bad.csv"), 20_000, "all-bad.csv settled");
    expect(bad.totals).toMatchObject({ valid: 0, rejected: 2 });
    await sleep(1_000);
    expect(
      (await t.client.campaigns.list()).filter((c) => c.campaigns_name?.startsWith(`${s.name} `)),
    ).toHaveLength(1);
    expect(await daemon!.queues.campaigns.getJobCounts()).toMatchObject({
      completed: 1,
      waiting: 0,
      failed: 0,
    });
  });

  it("a webhook down for a while receives every summary after it comes back, none lost", async () => {
    // Down for 3 s from the first summary it is sent, not from the test's start: on a busy machine the
    // first summary could come after a fixed window closed, and the outage would be tested by nothing.
    let downUntil: number | undefined;
    const accepted = new Map<string, CampaignSummary>();
    let refused = 0;
    receiver = await startHttpServer((req, res, body) => {
      downUntil ??= Date.now() + 3_000;
      if (Date.now() < downUntil) {
        refused += 1;
        return sendJson(res, 503, { error: "down" });
      }
      accepted.set(String(req.headers["idempotency-key"]), JSON.parse(body));
      sendJson(res, 200, { ok: true });
    });
    const s = setup({ progress: true });
    await start(s.settings);
    drop(s.inbox, "tuesday.csv", contactsCsv(12, { from: 91_000 }));
    await waitFor(
      () => ([...accepted.values()].some((p) => p.kind === "final") ? true : undefined),
      40_000,
      "final summary after the outage",
    );
    expect(refused).toBeGreaterThan(0);
    received(receiver!); // every request, refused or not, carried a valid signature
    // Every delivery made for the webhook completes, and its key reached the receiver.
    const hook = (
      await daemon!.queues.deliveries.getJobs(["completed", "failed", "waiting", "active", "delayed"])
    ).filter((j) => j.data.sink === "hook");
    expect(hook.length).toBeGreaterThanOrEqual(1);
    await waitFor(
      async () =>
        (await Promise.all(hook.map((j) => j.getState()))).every((st) => st === "completed")
          ? true
          : undefined,
      20_000,
      "deliveries completed",
    );
    for (const j of hook) expect(accepted.get(j.data.idempotencyKey)).toEqual(j.data.payload);
    expect(await daemon!.queues.deliveries.getFailedCount()).toBe(0);
  });

  it("follow-ups and suppression end to end", async () => {
    receiver = await startHttpServer((_req, res) => sendJson(res, 200, { ok: true }));
    const s = setup({ followUps: true });
    await start(s.settings);
    drop(s.inbox, "wednesday.csv", contactsCsv(12, { from: 92_000 }));
    const final = await waitFor(
      () => [...received(receiver!).values()].find((p) => p.kind === "final" && p.campaign.attempt === 0),
      30_000,
      "first campaign final",
    );
    const noAnswer = final.callsByStatus["no-answer"] ?? 0;
    const optedOut = final.callsByStatus["opted-out"] ?? 0;
    expect(noAnswer).toBeGreaterThan(0);
    expect(optedOut).toBeGreaterThan(0);

    // The follow-up campaign calls exactly the no-answer contacts, and ends too.
    const followUp = await waitFor(
      () => [...received(receiver!).values()].find((p) => p.kind === "final" && p.campaign.attempt === 1),
      30_000,
      "follow-up final",
    );
    expect(followUp.contacts).toBe(noAnswer);
    const parent = await waitFor(
      async () => {
        const p = await daemon!.queues.campaigns.getJobs(["completed"]);
        return p.length >= 2 ? p : undefined;
      },
      10_000,
      "two campaign jobs",
    );
    expect(parent).toHaveLength(2);

    // Opted-out contacts are suppressed: a new file with one of them skips it.
    const suppressed = await createSuppressionList(redis, redisKeys(s.settings.prefix.value)).list();
    expect(suppressed.length).toBeGreaterThanOrEqual(optedOut);
    const one = suppressed.find((p) => p.startsWith("+1415"))!;
    const n = Number(one.slice(5)) - 2_000_000;
    drop(
      s.inbox,
      "thursday.csv",
      contactsCsv(1, { from: n, extra: [`${phoneOf(93_000).slice(2)},New,new@example.com`] }),
    );
    const summary = await waitFor(() => summaryOf(s.inbox, "thursday.csv"), 20_000, "thursday imported");
    expect(summary.totals).toMatchObject({ total: 2, valid: 1, skipped: 1, codes: { opted_out: 1 } });
    expect(readFileSync(summary.errorsFile, "utf8")).toContain("opted_out");
    expect(existsSync(summary.errorsFile)).toBe(true);
  });

  it("a delivery that keeps failing ends in the failed set; vcw retry deliveries sends it again", async () => {
    let up = false;
    const accepted: string[] = [];
    receiver = await startHttpServer((req, res) => {
      if (!up) return sendJson(res, 500, {});
      accepted.push(String(req.headers["idempotency-key"]));
      sendJson(res, 200, {});
    });
    const s = setup({ env: { VCW_DELIVERY_ATTEMPTS: "2" } });
    await start(s.settings);
    drop(s.inbox, "friday.csv", contactsCsv(4, { from: 94_000 }));
    const failed = await waitFor(
      async () => {
        const jobs = await daemon!.queues.deliveries.getJobs(["failed"]);
        return jobs.find((j) => j.data.sink === "hook" && j.data.payload.kind === "final");
      },
      30_000,
      "final delivery failed",
    );
    expect(failed.failedReason).toBe("sink hook: answered HTTP 500");
    const status = await runCli(["status"], {
      REDIS_URL: inject("redisUrl"),
      VCW_PREFIX: s.settings.prefix.value,
    });
    expect(status.stdout).toMatch(/failed {3}deliveries hook\/final: sink hook: answered HTTP 500/);
    up = true;
    const retry = await runCli(["retry", "deliveries"], {
      REDIS_URL: inject("redisUrl"),
      VCW_PREFIX: s.settings.prefix.value,
    });
    expect(retry.stdout).toMatch(/\d+ failed deliveries jobs? sent back to the queue/);
    await waitFor(
      () => (accepted.includes(failed.data.idempotencyKey) ? true : undefined),
      20_000,
      "redelivered",
    );
    expect(await daemon!.queues.deliveries.getFailedCount()).toBe(0);
  });

  it("a permanent failure fails the campaign job at once, with the reason and what to do", async () => {
    receiver = await startHttpServer((_req, res) => sendJson(res, 200, { ok: true }));
    const s = setup({ assistant: "Nobody by this name" });
    await start(s.settings);
    drop(s.inbox, "saturday.csv", contactsCsv(3, { from: 95_000 }));
    const failed = await waitFor(
      async () => (await daemon!.queues.campaigns.getJobs(["failed"]))[0],
      20_000,
      "campaign job failed",
    );
    expect(failed.attemptsMade).toBe(1); // not retried 8 times over minutes
    expect(failed.failedReason).toBe(
      'no assistant is named "Nobody by this name": create it, or correct campaign.assistant in the job (by name or by id)',
    );
    expect(summaryOf(s.inbox, "saturday.csv")?.status).toBe("imported");
  });

  it("an imported file that can't be moved to done/ is never rejected: settling is retried, a re-drop calls no one twice", async () => {
    receiver = await startHttpServer((_req, res) => sendJson(res, 200, { ok: true }));
    const s = setup({
      env: { VCW_RESCAN_MS: "300", VCW_IMPORT_ATTEMPTS: "2", VCW_IMPORT_BACKOFF_MS: "100" },
    });
    // done/ can't be written (as on a full disk): a file stands where the folder should be.
    mkdirSync(s.inbox, { recursive: true });
    writeFileSync(join(s.inbox, "done"), "in the way");
    await start(s.settings);
    drop(s.inbox, "sunday.csv", contactsCsv(6, { from: 96_000, extra: ["12,Too short,"] }));
    const ours = async () =>
      (await t.client.campaigns.list()).filter((c) => c.campaigns_name?.startsWith(`${s.name} `));
    await waitFor(async () => ((await ours()).length === 1 ? true : undefined), 20_000, "the campaign");
    await waitFor(
      async () => ((await daemon!.queues.imports.getFailedCount()) > 0 ? true : undefined),
      20_000,
      "settling given up by BullMQ",
    );
    expect(existsSync(join(s.inbox, "rejected"))).toBe(false);
    expect(readdirSync(join(s.inbox, "processing")).some((f) => f.endsWith("-sunday.csv"))).toBe(true);

    // The operator drops it again, as one does: the same contacts, so no second campaign.
    drop(s.inbox, "sunday-again.csv", contactsCsv(6, { from: 96_000, extra: ["12,Too short,"] }));
    await sleep(1_000);
    rmSync(join(s.inbox, "done")); // space freed: the next rescan settles both
    const summary = await waitFor(() => summaryOf(s.inbox, "sunday.csv"), 20_000, "sunday.csv settled");
    expect(summary).toMatchObject({ status: "imported", created: 6, totals: { valid: 6, rejected: 1 } });
    expect(readFileSync(summary.errorsFile, "utf8")).toContain("Too short");
    await waitFor(
      () =>
        readdirSync(join(s.inbox, "done")).some((f) => f.includes("-dup") && f.endsWith("sunday-again.csv"))
          ? true
          : undefined,
      20_000,
      "the re-drop set aside as a duplicate",
    );
    await sleep(1_000);
    expect(await ours()).toHaveLength(1);
    expect(existsSync(join(s.inbox, "rejected"))).toBe(false);
  });

  it("what a file leaves in Redis expires after VCW_RETENTION_DAYS: campaign data, ledger, finished jobs", async () => {
    receiver = await startHttpServer((_req, res) => sendJson(res, 200, { ok: true }));
    const s = setup({ env: { VCW_RETENTION_DAYS: "2" } });
    await start(s.settings);
    drop(s.inbox, "retained.csv", contactsCsv(4, { from: 97_000 }));
    await waitFor(
      () => [...received(receiver!).values()].find((p) => p.kind === "final"),
      30_000,
      "campaign finished",
    );
    const keys = redisKeys(s.settings.prefix.value);
    const [id] = await daemon!.stores.store.allOf(s.name);
    const summary = await waitFor(() => summaryOf(s.inbox, "retained.csv"), 30_000, "retained.csv settled");
    const twoDays = 2 * 86_400_000;
    for (const key of [
      keys.campaign.meta(id!),
      keys.campaign.fingerprints(id!),
      keys.campaign.results(id!),
      keys.campaign.events(id!),
      keys.ledger(summary.segment!.id),
    ]) {
      const ttl = await redis.pttl(key);
      expect(ttl, key).toBeGreaterThan(twoDays - 60_000);
      expect(ttl, key).toBeLessThanOrEqual(twoDays);
    }
    for (const queue of [daemon!.queues.imports, daemon!.queues.campaigns, daemon!.queues.deliveries]) {
      const opts = queue.defaultJobOptions;
      expect(opts.removeOnFail, queue.name).toEqual({ age: 2 * 86_400 });
      expect(opts.removeOnComplete, queue.name).not.toBe(false);
    }
  });
});
