import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type Daemon, startDaemon } from "../../src/daemon/daemon.ts";
import { emptyTotals, summarize } from "../../src/pipeline/model/campaign-totals.ts";
import type { CampaignSummary } from "../../src/pipeline/model/results.ts";
import { cappedExponential } from "../../src/queue/backoff.ts";
import { SinkError } from "../../src/sinks/sink-error.ts";
import { signature, webhookSink } from "../../src/sinks/webhook/webhook-sink.ts";
import { quietLogger, testSettings, waitFor } from "../support/daemon.ts";
import { tempDir } from "../support/files.ts";
import { campaignInfo } from "../support/fixtures.ts";
import { sendJson, startHttpServer, type TestServer } from "../support/http-server.ts";

const whsec = () => `whsec_${randomBytes(24).toString("base64")}`;

const summary = (): CampaignSummary =>
  summarize(
    campaignInfo({
      name: "leads a.csv #01234567",
      job: "leads",
      file: "a.csv",
      scheduledAt: "2026-11-22T10:00:00.000Z",
      state: "finished",
    }),
    { ...emptyTotals(), contacts: 2, final: 2, byStatus: { completed: 2 } },
    3,
    "final",
    Date.parse("2026-11-22T11:00:00Z"),
  );

/** The headers of a received request as the library reads them. */
const headersOf = (r: TestServer["requests"][number]) =>
  Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k, String(v)]));

describe("Standard Webhooks", () => {
  let server: TestServer | undefined;
  let other: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    await other?.close();
    server = undefined;
    other = undefined;
    vi.useRealTimers();
  });

  it("a delivery verifies with the standardwebhooks library, and still with x-vcw-signature", async () => {
    const secret = whsec();
    server = await startHttpServer((_req, res) => sendJson(res, 200, {}));
    const sink = webhookSink("hook", { url: `${server.url}/hook`, secret, timeoutMs: 2_000 });
    await sink.deliver({ idempotencyKey: "key-1", payload: summary() });
    const [request] = server.requests;
    const headers = headersOf(request!);
    expect(new Webhook(secret).verify(request!.body, headers)).toEqual(summary());
    expect(headers["webhook-id"]).toBe("key-1");
    expect(Math.abs(Number(headers["webhook-timestamp"]) - Date.now() / 1000)).toBeLessThan(5);
    expect(headers["x-vcw-signature"]).toBe(signature(secret, request!.body));

    // Another secret does not verify; neither does a changed body or a moved timestamp.
    expect(() => new Webhook(whsec()).verify(request!.body, headers)).toThrow();
    expect(() => new Webhook(secret).verify(request!.body.replace("leads", "Leads"), headers)).toThrow();
    const moved = { ...headers, "webhook-timestamp": String(Number(headers["webhook-timestamp"]) + 1) };
    expect(() => new Webhook(secret).verify(request!.body, moved)).toThrow();
    // A captured request replayed ten minutes later is refused by its timestamp.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 10 * 60_000 });
    expect(() => new Webhook(secret).verify(request!.body, headers)).toThrow(/too old/i);
  });

  it("during a rotation both secrets sign: receivers holding the new or the old one verify", async () => {
    const [fresh, old] = [whsec(), whsec()];
    server = await startHttpServer((_req, res) => sendJson(res, 200, {}));
    const sink = webhookSink("hook", {
      url: `${server.url}/hook`,
      secret: `${fresh} ${old}`,
      timeoutMs: 2_000,
    });
    await sink.deliver({ idempotencyKey: "key-2", payload: summary() });
    const [request] = server.requests;
    const headers = headersOf(request!);
    expect(headers["webhook-signature"]!.split(" ")).toHaveLength(2);
    expect(new Webhook(fresh).verify(request!.body, headers)).toEqual(summary());
    expect(new Webhook(old).verify(request!.body, headers)).toEqual(summary());
    expect(() => new Webhook(whsec()).verify(request!.body, headers)).toThrow();
    // The older header is signed with the first (new) secret, as written in the variable.
    expect(headers["x-vcw-signature"]).toBe(signature(fresh, request!.body));
  });

  it("a plain-text secret signs with its bytes (the library's raw format)", async () => {
    const secret = "plain-secret-9d8c7b6a";
    server = await startHttpServer((_req, res) => sendJson(res, 200, {}));
    await webhookSink("hook", { url: `${server.url}/hook`, secret, timeoutMs: 2_000 }).deliver({
      idempotencyKey: "key-3",
      payload: summary(),
    });
    const [request] = server.requests;
    expect(new Webhook(secret, { format: "raw" }).verify(request!.body, headersOf(request!))).toEqual(
      summary(),
    );
  });

  it("a plain-text secret with a comma is one key, not two (issue 32 item 11)", async () => {
    const secret = "part-one,part-two";
    server = await startHttpServer((_req, res) => sendJson(res, 200, {}));
    await webhookSink("hook", { url: `${server.url}/hook`, secret, timeoutMs: 2_000 }).deliver({
      idempotencyKey: "key-4",
      payload: summary(),
    });
    const [request] = server.requests;
    const headers = headersOf(request!);
    expect(headers["webhook-signature"]!.split(" ")).toHaveLength(1);
    expect(new Webhook(secret, { format: "raw" }).verify(request!.body, headers)).toEqual(summary());
    expect(headers["x-vcw-signature"]).toBe(signature(secret, request!.body));
  });

  it("a redirect is not followed: the signed summary goes nowhere else", async () => {
    other = await startHttpServer((_req, res) => sendJson(res, 200, {}));
    server = await startHttpServer((_req, res) => {
      res.writeHead(307, { location: `${other!.url}/elsewhere` });
      res.end();
    });
    const sink = webhookSink("hook", { url: `${server.url}/hook`, secret: whsec(), timeoutMs: 2_000 });
    const error = await sink.deliver({ idempotencyKey: "k", payload: summary() }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SinkError);
    expect((error as SinkError).message).toMatch(/HTTP 307: redirects are not followed/);
    expect(other.requests).toHaveLength(0);
  });

  it("retries are capped, and 410 Gone stops them at once", () => {
    const strategy = cappedExponential(3_600_000);
    const job = { opts: { backoff: { type: "capped-exponential", delay: 2_000 } } } as never;
    const delays = Array.from(
      { length: 19 },
      (_, i) => strategy(i + 1, "capped-exponential", undefined, job) as number,
    );
    expect(delays.slice(0, 3)).toEqual([2_000, 4_000, 8_000]);
    expect(Math.max(...delays)).toBe(3_600_000);
    // The default schedule (20 attempts, 2 s doubling, 1 h cap) spans hours.
    const hours = delays.reduce((a, b) => a + b, 0) / 3_600_000;
    expect(hours).toBeGreaterThan(8);
    expect(hours).toBeLessThan(10);
    expect(new SinkError("hook", "answered HTTP 410", 410).permanent).toBe(true);
    expect(new SinkError("hook", "answered HTTP 503", 503).permanent).toBe(false);
  });

  describe("through the daemon's delivery queue", () => {
    let daemon: Daemon | undefined;
    afterEach(async () => {
      await daemon?.close();
      daemon = undefined;
    });

    async function deliverVia(url: string, env: NodeJS.ProcessEnv) {
      const home = tempDir("vcw-hook-");
      mkdirSync(join(home, "jobs"));
      writeFileSync(
        join(home, "jobs", "sinks.yaml"),
        `sinks:\n  hook:\n    type: webhook\n    url: ${url}\n`,
      );
      const settings = testSettings(home, "http://127.0.0.1:9/api/v1", env);
      daemon = await startDaemon({ settings, logger: quietLogger(), watch: false, work: true });
      const job = await daemon.queues.deliveries.add("final", {
        sink: "hook",
        idempotencyKey: `k-${randomBytes(4).toString("hex")}`,
        payload: summary(),
      });
      return job.id!;
    }

    it("410: the delivery fails after one request, whatever attempts are left", async () => {
      server = await startHttpServer((_req, res) => sendJson(res, 410, {}));
      const id = await deliverVia(`${server.url}/hook`, {
        VCW_DELIVERY_ATTEMPTS: "5",
        VCW_DELIVERY_BACKOFF_MS: "50",
      });
      await waitFor(
        async () =>
          (await (await daemon!.queues.deliveries.getJob(id))?.getState()) === "failed" ? true : undefined,
        10_000,
        "failed",
      );
      // BullMQ counts the attempt just after the move; and a retry, were there one, would come by now.
      await new Promise((r) => setTimeout(r, 300));
      const job = await daemon!.queues.deliveries.getJob(id);
      expect(job!.attemptsMade).toBe(1);
      expect(job!.failedReason).toMatch(/410 \(Gone\)/);
      expect(server.requests).toHaveLength(1);
    });

    it("a receiver that keeps failing is retried on the capped schedule", async () => {
      const at: number[] = [];
      server = await startHttpServer((_req, res) => {
        at.push(Date.now());
        sendJson(res, 503, {});
      });
      await deliverVia(`${server.url}/hook`, {
        VCW_DELIVERY_ATTEMPTS: "5",
        VCW_DELIVERY_BACKOFF_MS: "100",
        VCW_DELIVERY_BACKOFF_MAX_MS: "200",
      });
      await waitFor(() => (at.length >= 5 ? true : undefined), 10_000, "five attempts");
      const gaps = at.slice(1).map((t, i) => t - at[i]!);
      // Uncapped, the last gaps would be 400 and 800 ms.
      expect(gaps[0]).toBeGreaterThanOrEqual(90);
      expect(Math.max(...gaps)).toBeLessThan(390);
      expect(gaps.slice(2).every((g) => g >= 190)).toBe(true);
    });
  });
});
