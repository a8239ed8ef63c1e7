import { execFile } from "node:child_process";
import { createHmac } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { emptyTotals, summarize } from "../../src/pipeline/model/campaign-totals.ts";
import type { CampaignSummary, ResultRecord } from "../../src/pipeline/model/results.ts";
import { createSink } from "../../src/queue/create-sink.ts";
import { fileSink } from "../../src/sinks/file/file-sink.ts";
import { SinkError } from "../../src/sinks/sink-error.ts";
import { slackSink } from "../../src/sinks/slack/slack-sink.ts";
import { webhookSink } from "../../src/sinks/webhook/webhook-sink.ts";
import { tempDir } from "../support/files.ts";
import { campaignInfo, resultRecord } from "../support/fixtures.ts";

const run = promisify(execFile);

import { sendJson, startHttpServer, type TestServer } from "../support/http-server.ts";
import { captureLogs } from "../support/log-capture.ts";

const summary = (): CampaignSummary =>
  summarize(
    campaignInfo({
      name: "leads 2026-11-22 a.csv #01234567",
      job: "leads",
      file: "a.csv",
      scheduledAt: "2026-11-22T10:00:00.000Z",
      state: "finished",
    }),
    { ...emptyTotals(), contacts: 2, final: 2, byStatus: { completed: 1, "no-answer": 1 } },
    4,
    "final",
    Date.parse("2026-11-22T11:00:00Z"),
  );

const record = (phone: string, over: Partial<ResultRecord> = {}): ResultRecord =>
  resultRecord(phone, {
    first_name: '=HYPERLINK("x")',
    last_name: "Lima",
    status: "completed",
    durationSec: 42,
    sentiment: "positive",
    meeting: true,
    transcript: "Hello, yes",
    ...over,
  });

describe("sinks", () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("webhook: the JSON summary, its Idempotency-Key, and an HMAC-SHA256 signature of the exact body", async () => {
    server = await startHttpServer((_req, res) => sendJson(res, 200, {}));
    const sink = webhookSink("hook", { url: `${server.url}/x`, secret: "s3cret-value", timeoutMs: 2_000 });
    await sink.deliver({ idempotencyKey: "key-1", payload: summary() });
    const [request] = server.requests;
    expect(request!.headers["idempotency-key"]).toBe("key-1");
    expect(request!.headers["content-type"]).toBe("application/json");
    const expected = createHmac("sha256", "s3cret-value").update(request!.body).digest("hex");
    expect(request!.headers["x-vcw-signature"]).toBe(`sha256=${expected}`);
    expect(JSON.parse(request!.body)).toEqual(summary());
  });

  it("webhook: a non-2xx answer or a timeout is a SinkError that names the sink, never the URL", async () => {
    server = await startHttpServer((_req, res) => sendJson(res, 500, {}));
    const url = `${server.url}/secret-path-token`;
    const sink = webhookSink("hook", { url, secret: undefined, timeoutMs: 2_000 });
    const error = await sink.deliver({ idempotencyKey: "k", payload: summary() }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SinkError);
    expect((error as SinkError).message).toBe("sink hook: answered HTTP 500");
    await server.close();
    server = await startHttpServer(() => undefined); // never answers
    const slow = webhookSink("hook", { url: `${server.url}/x`, secret: undefined, timeoutMs: 200 });
    await expect(slow.deliver({ idempotencyKey: "k", payload: summary() })).rejects.toThrow(
      "sink hook: no answer within 200 ms",
    );
  });

  it("slack: a readable text message", async () => {
    server = await startHttpServer((_req, res) => sendJson(res, 200, {}));
    await slackSink("team", { url: `${server.url}/slack`, timeoutMs: 2_000 }).deliver({
      idempotencyKey: "k",
      payload: summary(),
    });
    const { text } = JSON.parse(server.requests[0]!.body);
    expect(text).toContain("Campaign leads 2026-11-22 a.csv #01234567 (cmp_1): finished, 100% complete");
    expect(text).toContain("calls by status: completed 1, no-answer 1");
  });

  it("file: a formula-safe results CSV with phones as text, and each delivery once in the JSONL log", async () => {
    const dir = tempDir();
    const sink = fileSink({ dir });
    async function* records() {
      yield record("+14155550102");
      yield record("+14155550101", { status: "no-answer", durationSec: 0 });
    }
    const delivery = { idempotencyKey: "k1", payload: summary(), records };
    await sink.deliver(delivery);
    await sink.deliver(delivery); // a retried delivery
    // Named by the campaign's name and id: a folder of results reads by name.
    const base = "leads 2026-11-22 a.csv #01234567.cmp_1";
    expect(readdirSync(dir).sort()).toEqual([`${base}.events.jsonl`, `${base}.results.csv`]);
    const csv = readFileSync(join(dir, `${base}.results.csv`), "utf8").split("\r\n");
    expect(csv[1]).toBe(
      // The last cell: caller_number, empty for a job's one dialer.
      `'+14155550101,"'=HYPERLINK(""x"")",Lima,no-answer,0,positive,true,false,false,,,"Hello, yes",`,
    );
    expect(csv[2]!.startsWith("'+14155550102,")).toBe(true);
    const log = readFileSync(join(dir, `${base}.events.jsonl`), "utf8")
      .trim()
      .split("\n");
    expect(log).toHaveLength(1);
    expect(JSON.parse(log[0]!)).toMatchObject({ key: "k1", payload: { kind: "final", version: 4 } });
  });

  it("log: one structured line; createSink reads secrets from the environment and says which is missing", async () => {
    const { logger, text } = captureLogs();
    await createSink("log", { type: "log" }, { logger }).deliver({ idempotencyKey: "k", payload: summary() });
    expect(JSON.parse(text())).toMatchObject({ msg: "campaign summary (final)", summary: { contacts: 2 } });
    expect(() =>
      createSink(
        "hook",
        { type: "webhook", url: "http://x", secretEnv: "NOPE_SECRET", timeoutMs: 1 },
        { logger, env: {} },
      ),
    ).toThrow("sink hook: the secret variable NOPE_SECRET is not set");
    expect(() =>
      createSink("team", { type: "slack", urlEnv: "NOPE_URL", timeoutMs: 1 }, { logger, env: {} }),
    ).toThrow("sink team: the webhook URL variable NOPE_URL is not set");
  });
});

describe("file sink shared by several processes", () => {
  it("every delivery is written exactly once, across processes and concurrent deliveries", async () => {
    const dir = tempDir();
    // 80 campaign events, each delivered by every one of the four processes.
    const keys = Array.from({ length: 80 }, (_, i) => `v${i}`);
    const share = (w: number) => [...keys.slice(w * 20), ...keys.slice(0, w * 20)];
    const child = fileURLToPath(new URL("../support/file-sink-child.ts", import.meta.url));
    const outputs = await Promise.all(
      [0, 1, 2, 3].map((w) =>
        run(process.execPath, ["--import", "tsx", child, dir, `w${w}`, ...share(w)], { timeout: 60_000 }),
      ),
    );
    for (const o of outputs) expect(o.stdout.trim()).toBe("done");
    const lines = (file: string) =>
      readFileSync(join(dir, file), "utf8")
        .trim()
        .split("\n")
        .map((l) => (JSON.parse(l) as { key: string }).key);
    const events = lines("cmp_1.cmp_shared.events.jsonl");
    expect(events.sort()).toEqual([...keys].sort());
    // The results file is whole (one writer's complete content), and no temporary file is left.
    expect(readFileSync(join(dir, "cmp_1.cmp_shared.results.csv"), "utf8").split("\r\n")).toHaveLength(3);
    expect(readdirSync(dir).filter((f) => f.includes("tmp") || f.endsWith(".lock"))).toEqual([]);
  }, 90_000);
});
