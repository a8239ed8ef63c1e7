import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type Daemon, startDaemon } from "../../src/daemon/daemon.ts";
import { redisKeys } from "../../src/lib/redis-keys.ts";
import { createConsentStore } from "../../src/pipeline/stores/consent-store.ts";
import { createSuppressionList } from "../../src/pipeline/stores/suppression.ts";
import { contactsCsv, drop, quietLogger, summaryOf, testSettings, waitFor } from "../support/daemon.ts";
import { tempDir } from "../support/files.ts";
import { validAssistant, validDialer } from "../support/fixtures.ts";
import { captureLogs } from "../support/log-capture.ts";
import { useRedis } from "../support/redis.ts";
import { useSimulator } from "../support/simulator.ts";
import { campaignJobYaml, startHook } from "./console-fixtures.ts";

const TOKEN = "op-token-5d1f0c9e8b7a6d4c";
const bearer = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" };

describe("operator actions over HTTP (the code the CLI runs too)", () => {
  const t = useSimulator({ timeScale: 100 });
  const { redis } = useRedis();
  let daemon: Daemon | undefined;
  let receiver: Awaited<ReturnType<typeof startHook>> | undefined;
  afterEach(async () => {
    await daemon?.close();
    await receiver?.close();
    daemon = undefined;
    receiver = undefined;
  });

  /** Job "leads": a campaign per file (polled every second), its summaries to `sinks` when given. */
  async function campaignJob(dir: string, inbox: string, sinks?: string) {
    const assistant = `Ava ${randomBytes(3).toString("hex")}`;
    await t.client.assistants.create(validAssistant({ name: assistant }));
    const dialer = (await t.client.dialers.create(validDialer())).id!;
    mkdirSync(dir, { recursive: true });
    const yaml = campaignJobYaml({
      name: "leads",
      inbox,
      segment: `seg-${randomBytes(3).toString("hex")} {file}`,
      assistant,
      dialer,
      start: ["  start: asap"],
      sinks: sinks ? ["hook"] : [],
    });
    writeFileSync(join(dir, "leads.yaml"), yaml);
    if (sinks) writeFileSync(join(dir, "sinks.yaml"), sinks);
  }

  async function start(env: NodeJS.ProcessEnv = {}, logger = quietLogger(), sinks?: string) {
    const home = tempDir("vcw-act-");
    const inbox = join(home, "inbox");
    await campaignJob(join(home, "jobs"), inbox, sinks);
    const settings = testSettings(home, t.sim.url, { VCW_HTTP_ADDR: "127.0.0.1:0", ...env });
    daemon = await startDaemon({ settings, logger, watch: true, work: true });
    await daemon.ready;
    const url = daemon.http!.url;
    const act = async (action: object, confirmed = true) => {
      const r = await fetch(`${url}/api/actions`, {
        method: "POST",
        headers: bearer,
        body: JSON.stringify({ ...action, confirmed }),
      });
      return { status: r.status, ...((await r.json()) as { ok: boolean; count: number; message: string }) };
    };
    return { url, inbox, act, daemon };
  }

  it("are refused without a token, unconfirmed, or malformed, saying why", async () => {
    const open = await start();
    const r = await fetch(`${open.url}/api/actions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ kind: "pause", job: "leads", confirmed: true }),
    });
    expect(r.status).toBe(403);
    expect(((await r.json()) as { message: string }).message).toContain("VCW_HTTP_TOKEN");
    await daemon!.close();
    const { act } = await start({ VCW_HTTP_TOKEN: TOKEN });
    expect(await act({ kind: "pause", job: "leads" }, false)).toMatchObject({ status: 400, ok: false });
    const bad = await act({ kind: "retry", queue: "nowhere", id: "1" });
    expect(bad.status).toBe(400);
    expect(bad.message).toMatch(/^queue: /);
    // A campaign asked for but not yet created (a follow-up spaced a minute out) is canceled.
    const request = {
      job: "leads",
      sha256: "ab".repeat(32),
      gen: 1,
      original: "later.csv",
      segmentId: "s",
      attempt: 1,
      name: "leads later follow-up 1",
    };
    const pending = await daemon!.queues.campaigns.add("create", request, { delay: 60_000 });
    const canceled = await act({ kind: "cancel", campaign: pending.id! });
    expect(canceled).toMatchObject({ status: 200, ok: true, count: 1 });
    expect(canceled.message).toContain("canceled before it was created: leads later follow-up 1");
    expect(await daemon!.queues.campaigns.getJob(pending.id!)).toBeUndefined();
    expect(await act({ kind: "cancel", campaign: pending.id! })).toMatchObject({ status: 409 });
    expect(await act({ kind: "pause", job: "nobody" })).toMatchObject({
      status: 409,
      message: /no job "nobody"/,
    });
  });

  it("revokes consent for every job at once, with the time received and the operator; a number that is no valid +country number is refused, named masked; one spelt otherwise is kept as E.164", async () => {
    const prefix = `vcw-test-${randomBytes(4).toString("hex")}`;
    const logs = captureLogs();
    const { act } = await start({ VCW_HTTP_TOKEN: TOKEN, VCW_PREFIX: prefix }, logs.logger);
    const bad = await act({ kind: "consent-revoke", phones: ["212 555 0100"] });
    expect(bad).toMatchObject({
      status: 400,
      message: expect.stringMatching(/^phones\.0: must be a valid number in \+country format/),
    });
    // Review of issue 46, finding 7: too short, too long, each named (masked) by its place; nothing revoked.
    const invalid = await act({
      kind: "consent-revoke",
      phones: ["+12125550100", "+1415555010", "+10004155550101"],
    });
    expect(invalid.status).toBe(400);
    expect(invalid.message).toBe(
      'phones.1: must be a valid number in +country format (E.164), not "+14••••••10" (phone_too_short); ' +
        'phones.2: must be a valid number in +country format (E.164), not "+10••••••••••01" (phone_too_long)',
    );
    const keys = redisKeys(prefix);
    expect(await createSuppressionList(redis, keys).list()).toEqual([]);
    const before = Date.now();
    // A national 0 after the country code, spaces, brackets: kept as the E.164 vcw keys numbers by.
    const revoked = await act({
      kind: "consent-revoke",
      phones: ["+1 (212) 555-0100", "+13055550102", "+4402071234567", "+12125550100"],
    });
    expect(revoked).toMatchObject({ status: 200, ok: true, count: 3 });
    expect(revoked.message).toMatch(/^consent of 3 numbers revoked at \S+, for every job$/);
    const kept = await createConsentStore(redis, keys).read([
      "+12125550100",
      "+13055550102",
      "+442071234567",
    ]);
    expect([...kept.values()].map((k) => k.revokedVia)).toEqual([
      "operator token",
      "operator token",
      "operator token",
    ]);
    expect(kept.get("+12125550100")!.revokedAt).toBeGreaterThanOrEqual(before);
    expect(await createSuppressionList(redis, keys).list()).toEqual([
      "+12125550100",
      "+13055550102",
      "+442071234567",
    ]);
    // The log names the action with the numbers masked.
    expect(logs.text()).toContain("operator action: revoke the consent of +1");
    expect(logs.text()).not.toContain("2125550100");
  });

  it("pause sends nothing until resume; a started campaign is stopped; all logged with who", async () => {
    const logs = captureLogs();
    const { act, inbox, url } = await start({ VCW_HTTP_TOKEN: TOKEN }, logs.logger);
    const paused = await act({ kind: "pause", job: "leads" });
    expect(paused).toMatchObject({ status: 200, ok: true, count: 1 });
    expect(paused.message).toContain("job leads paused");
    drop(inbox, "monday.csv", contactsCsv(3, { from: 60_000 }));
    const sent = async () => {
      const text = await (await fetch(`${url}/metrics`, { headers: bearer })).text();
      return /vcw_api_requests_total\{operation="contacts.create"/.test(text);
    };
    // The file's import was taken and had its outcome: put back to wait (the delayed set), paused.
    await waitFor(
      async () =>
        (await daemon!.queues.imports.getJobs(["delayed", "completed", "failed"])).some((j) => j.processedOn)
          ? true
          : undefined,
      20_000,
      "the file's import taken",
    );
    expect(await sent()).toBe(false);
    expect(summaryOf(inbox, "monday.csv")).toBeUndefined();
    expect(await act({ kind: "resume", job: "leads" })).toMatchObject({
      status: 200,
      message: "job leads resumed",
    });
    // The held import runs at once, not at the end of its pause's wait (5 s by default).
    expect(await daemon!.queues.imports.getDelayedCount()).toBe(0);
    const summary = await waitFor(() => summaryOf(inbox, "monday.csv"), 20_000, "imported after resume");
    expect(summary.created).toBe(3);
    expect(await sent()).toBe(true);

    const campaign = await waitFor(
      async () =>
        (await daemon!.queues.campaigns.getJobs(["completed"]))[0]?.returnvalue as
          | { id?: string }
          | undefined,
      20_000,
      "campaign created",
    );
    const overview = (await (await fetch(`${url}/api/overview`, { headers: bearer })).json()) as {
      campaigns: { id: string }[];
    };
    const id = overview.campaigns[0]?.id ?? String(campaign.id);
    // A campaign that exists is stopped now (issue 20): asked of its next poll, or already over.
    const stop = await act({ kind: "stop", campaign: id });
    if (stop.status === 200) expect(stop.message).toMatch(/^stop of campaign .* asked: its next poll takes/);
    else
      expect(stop).toMatchObject({ status: 409, message: expect.stringMatching(/has ended \(finished\)/) });
    const text = logs.text();
    expect(text).toMatch(/"who":"token","action":"pause job leads"/);
    expect(text).toMatch(/"who":"token","action":"stop campaign/);
    expect(text).not.toContain(TOKEN);
  });

  it("retries every failed delivery of one sink, and re-runs every rejected file of one job", async () => {
    const hook = await startHook();
    receiver = hook;
    const { act, inbox, daemon } = await start(
      { VCW_HTTP_TOKEN: TOKEN, VCW_DELIVERY_ATTEMPTS: "1" },
      quietLogger(),
      hook.sinksYaml,
    );
    drop(inbox, "tuesday.csv", contactsCsv(2, { from: 61_000 }));
    drop(inbox, "broken.csv", "name,email\nNo Phone,a@example.com\n");
    await waitFor(() => summaryOf(inbox, "broken.csv", "rejected"), 20_000, "rejected");
    const failed = await waitFor(
      async () => ((await daemon.queues.deliveries.getFailedCount()) > 0 ? true : undefined),
      30_000,
      "a delivery failed",
    );
    expect(failed).toBe(true);
    hook.state.up = true;
    const other = await act({ kind: "retry-all", queue: "deliveries", sink: "elsewhere" });
    expect(other).toMatchObject({ status: 200, count: 0 });
    const retried = await act({ kind: "retry-all", queue: "deliveries", sink: "hook" });
    expect(retried.status).toBe(200);
    expect(retried.count).toBeGreaterThan(0);
    await waitFor(() => (hook.state.received >= retried.count ? true : undefined), 20_000, "redelivered");

    const [rejected] = await daemon.queues.imports.getFailed();
    const rerun = await act({ kind: "retry-all", queue: "imports", job: "leads" });
    expect(rerun).toMatchObject({ status: 200, count: 1 });
    expect(rerun.message).toContain("1 rejected file dropped into their inbox again");
    // Imported afresh (and rejected again: it still has no phone column), under a new import.
    await waitFor(
      async () => {
        const now = await daemon.queues.imports.getFailed();
        return now.length === 1 && now[0]!.id !== rejected!.id ? true : undefined;
      },
      20_000,
      "re-run",
    );
  });
});
