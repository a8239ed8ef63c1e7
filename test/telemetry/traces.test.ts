import { randomBytes } from "node:crypto";
import { appendFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { InMemorySpanExporter, type ReadableSpan } from "@opentelemetry/sdk-trace";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "../../src/api/client.ts";
import { type Daemon, startDaemon } from "../../src/daemon/daemon.ts";
import { requestSpans } from "../../src/telemetry/request-spans.ts";
import { inSpan } from "../../src/telemetry/span.ts";
import { startTracing, stopTracing } from "../../src/telemetry/tracing.ts";
import { callingJob } from "../support/calling-job.ts";
import { contactsCsv, drop, phoneOf, quietLogger, testSettings, waitFor } from "../support/daemon.ts";
import { API_KEY, validAssistant, validDialer } from "../support/fixtures.ts";
import { sendJson, startHttpServer } from "../support/http-server.ts";
import { useSimulator } from "../support/simulator.ts";

/** Every string a span would send: its name, status, attributes, events' names and attributes. */
function textsOf(span: ReadableSpan): string[] {
  const values = (a: object) =>
    Object.values(a)
      .flatMap((v) => (Array.isArray(v) ? v : [v]))
      .map(String);
  return [
    span.name,
    span.status.message ?? "",
    ...Object.keys(span.attributes),
    ...values(span.attributes),
    ...span.events.flatMap((e) => [e.name, ...values(e.attributes ?? {})]),
  ];
}

const traceOf = (s: ReadableSpan) => s.spanContext().traceId;

describe("traces (OpenTelemetry, in-memory exporter)", () => {
  const exporter = new InMemorySpanExporter();
  const t = useSimulator({ timeScale: 600 });
  let daemon: Daemon | undefined;

  beforeAll(async () => {
    // A secret-looking variable: its value is scrubbed from whatever a span carries.
    process.env.VCW_TEST_TRACE_TOKEN = "tok-5b7e1f0c93d2";
    // As bin.ts does before anything else; the exporter stands for the one OTEL_TRACES_EXPORTER names.
    expect(await startTracing({ exporter, version: "test" })).toBeDefined();
  });
  afterEach(async () => {
    await daemon?.close();
    daemon = undefined;
  });
  afterAll(() => stopTracing());

  it("one trace follows a dropped file through import, campaign, polls and delivery; no phone, key or header in any span", async () => {
    const assistant = `Ava ${randomBytes(3).toString("hex")}`;
    await t.client.assistants.create(validAssistant({ name: assistant }));
    const dialerId = (await t.client.dialers.create(validDialer())).id!;
    const { home, inbox, name } = callingJob({ assistant: { name: assistant }, dialerId });
    const out = join(home, "out");
    appendFileSync(join(home, "jobs", "calls.yaml"), "\nsummaries:\n  sinks: [files]\n");
    writeFileSync(join(home, "jobs", "sinks.yaml"), `sinks:\n  files:\n    type: file\n    dir: ${out}\n`);
    exporter.reset();
    const settings = testSettings(home, t.sim.url);
    daemon = await startDaemon({ settings, logger: quietLogger(), watch: true, work: true });
    await daemon.ready;
    drop(inbox, "traced.csv", contactsCsv(6, { from: 51_000 }));

    const spans = () => exporter.getFinishedSpans();
    const file = await waitFor(() => spans().find((s) => s.name === "vcw.file"), 30_000, "the file's span");
    const trace = traceOf(file);
    const inTrace = () => spans().filter((s) => traceOf(s) === trace);
    // The final summary's delivery, processed in the same trace, ends it.
    await waitFor(
      () => (inTrace().some((s) => s.name === "process vcw-delivery") ? true : undefined),
      60_000,
      "a delivery processed in the file's trace",
    );
    const events = join(out, readdirOf(out).find((f) => f.endsWith(".events.jsonl")) ?? "none");
    await waitFor(() =>
      existsSync(events) && readFileSync(events, "utf8").includes('"final"') ? true : undefined,
    );

    const names = new Set(inTrace().map((s) => s.name));
    for (const expected of [
      "vcw.file",
      "add vcw-import.",
      "process vcw-import",
      "add vcw-campaign.",
      "process vcw-campaign",
      "vcw.ledger.seed",
      "vcw.poll",
      "vcw.poll.commit",
      "add vcw-delivery.",
      "process vcw-delivery",
    ])
      expect(
        [...names].some((n) => n.startsWith(expected)),
        `${expected} in ${[...names]}`,
      ).toBe(true);

    // Calls to the service: one span per attempt, in the trace, with operation, status and attempt.
    const calls = inTrace().filter((s) => s.name.startsWith("vcs "));
    const ops = new Set(calls.map((s) => s.attributes["vcs.operation"]));
    for (const op of ["segments.create", "contacts.create", "campaigns.create", "campaigns.audiences"])
      expect(ops.has(op), `${op} in ${[...ops]}`).toBe(true);
    const create = calls.find((s) => s.attributes["vcs.operation"] === "campaigns.create")!;
    expect(create.attributes).toMatchObject({ "vcs.attempt": 1, "vcs.outcome": "200" });
    expect(create.attributes["http.response.status_code"]).toBe(200);
    // A poll's service call is a child of that poll's span, and the poll links to the tick's trace.
    const polls = inTrace().filter((s) => s.name === "vcw.poll");
    const audience = calls.find((s) => s.attributes["vcs.operation"] === "campaigns.audiences")!;
    expect(polls.map((p) => p.spanContext().spanId)).toContain(audience.parentSpanContext?.spanId);
    expect(polls[0]!.links.length).toBe(1);
    expect(polls[0]!.attributes["vcw.job"]).toBe(name);

    // Nothing personal or secret in any span of any trace.
    const texts = spans().flatMap(textsOf).join("\n");
    for (let i = 0; i < 6; i++) expect(texts).not.toContain(phoneOf(51_000 + i).slice(2));
    expect(texts).not.toContain(API_KEY);
    expect(texts.toLowerCase()).not.toContain("x-api-key");
  }, 120_000);

  it("a retried request is one span per attempt; an error's phone and secret are masked before export", async () => {
    let calls = 0;
    const server = await startHttpServer((_req, res) => {
      calls += 1;
      if (calls === 1) sendJson(res, 503, { message: "busy" });
      else sendJson(res, 200, []);
    });
    try {
      exporter.reset();
      const client = createClient({
        baseUrl: server.url,
        apiKey: API_KEY,
        maxRetries: 2,
        retry: { baseDelayMs: 1, maxDelayMs: 5 },
        observer: requestSpans()!,
      });
      await inSpan("caller", {}, () => client.segments.list());
      const attempts = exporter.getFinishedSpans().filter((s) => s.name === "vcs segments.list");
      expect(
        attempts.map((s) => [s.attributes["vcs.attempt"], s.attributes["http.response.status_code"]]),
      ).toEqual([
        [1, 503],
        [2, 200],
      ]);
      const caller = exporter.getFinishedSpans().find((s) => s.name === "caller")!;
      for (const a of attempts) expect(a.parentSpanContext?.spanId).toBe(caller.spanContext().spanId);
    } finally {
      await server.close();
    }

    exporter.reset();
    await expect(
      inSpan("failing", { attributes: { note: "to +14155550123" } }, async () => {
        throw new Error("contact +1 415 555 0123 refused with tok-5b7e1f0c93d2");
      }),
    ).rejects.toThrow(/refused/);
    const [failing] = exporter.getFinishedSpans();
    const text = textsOf(failing!).join("\n");
    expect(text).toContain("refused");
    expect(text).not.toMatch(/555.?0123/);
    expect(text).not.toContain("tok-5b7e1f0c93d2");
    expect(failing!.status.code).toBe(2);
  });
});

const readdirOf = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir) : []);
