import { randomBytes } from "node:crypto";
import { appendFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { callingJob } from "../support/calling-job.ts";
import { cliEnv, runCli, spawnVcw } from "../support/cli.ts";
import { contactsCsv, drop, phoneOf, waitFor } from "../support/daemon.ts";
import { tempDir } from "../support/files.ts";
import { API_KEY, validAssistant, validDialer } from "../support/fixtures.ts";
import { sendJson, startHttpServer } from "../support/http-server.ts";
import { useSimulator } from "../support/simulator.ts";

/** One span of an OTLP/HTTP JSON export, as far as the test reads it. */
interface OtlpSpan {
  traceId: string;
  name: string;
  attributes?: { key: string; value: Record<string, unknown> }[];
}
interface OtlpExport {
  resourceSpans: {
    resource: { attributes: { key: string; value: { stringValue?: string } }[] };
    scopeSpans: { spans: OtlpSpan[] }[];
  }[];
}

describe("traces end to end: vcw start exporting to a local OTLP/HTTP receiver", () => {
  const t = useSimulator({ timeScale: 600 });

  it("OTEL_TRACES_EXPORTER=otlp (http/json): one trace from the dropped file to the delivery reaches the collector", async () => {
    // The collector: a plain HTTP server on 127.0.0.1 reading the JSON export.
    const collector = await startHttpServer((_req, res) => sendJson(res, 200, {}));
    const assistant = `Ava ${randomBytes(3).toString("hex")}`;
    await t.client.assistants.create(validAssistant({ name: assistant }));
    const dialerId = (await t.client.dialers.create(validDialer())).id!;
    const job = callingJob({ assistant: { name: assistant }, dialerId });
    appendFileSync(join(job.home, "jobs", "calls.yaml"), "\nsummaries:\n  sinks: [files]\n");
    writeFileSync(
      join(job.home, "jobs", "sinks.yaml"),
      `sinks:\n  files:\n    type: file\n    dir: ${join(job.home, "out")}\n`,
    );
    const daemon = spawnVcw(
      ["start"],
      cliEnv(job.home, t.sim.url, {
        VCW_HTTP_ADDR: "off",
        VCW_STABLE_MS: "200",
        OTEL_TRACES_EXPORTER: "otlp",
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.url.replace("/api/v1", ""),
        OTEL_SERVICE_NAME: "vcw-e2e",
        OTEL_BSP_SCHEDULE_DELAY: "200",
      }),
    );
    const exports = () =>
      collector.requests.filter((r) => r.url === "/v1/traces").map((r) => JSON.parse(r.body) as OtlpExport);
    const spans = () =>
      exports().flatMap((e) => e.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)));
    try {
      await waitFor(() => (daemon.logs().includes("vcw daemon running") ? true : undefined), 90_000, "start");
      drop(job.inbox, "e2e.csv", contactsCsv(4, { from: 61_000 }));
      const file = await waitFor(() => spans().find((s) => s.name === "vcw.file"), 60_000, "the file's span");
      const inTrace = () => spans().filter((s) => s.traceId === file.traceId);
      await waitFor(
        () => (inTrace().some((s) => s.name === "process vcw-delivery") ? true : undefined),
        90_000,
        "the delivery's span in the file's trace",
      );
    } finally {
      daemon.child.kill("SIGTERM");
      await daemon.exited;
      await collector.close();
    }
    expect(daemon.child.exitCode).toBe(0);

    const file = spans().find((s) => s.name === "vcw.file")!;
    const names = new Set(
      spans()
        .filter((s) => s.traceId === file.traceId)
        .map((s) => s.name),
    );
    for (const name of ["process vcw-import", "process vcw-campaign", "vcw.poll", "vcs campaigns.create"])
      expect(names.has(name), `${name} in ${[...names]}`).toBe(true);
    const resource = exports()[0]!.resourceSpans[0]!.resource.attributes;
    expect(resource.find((a) => a.key === "service.name")?.value.stringValue).toBe("vcw-e2e");
    // The process detector is left out: no command line, nothing personal from it.
    expect(resource.some((a) => a.key.startsWith("process.command"))).toBe(false);
    const sent = collector.requests.map((r) => r.body).join("\n");
    for (let i = 0; i < 4; i++) expect(sent).not.toContain(phoneOf(61_000 + i).slice(2));
    expect(sent).not.toContain(API_KEY);
    // Application/json, as the protocol asks.
    expect(collector.requests[0]!.headers["content-type"]).toMatch(/application\/json/);
  }, 240_000);

  it("the default protocol, http/protobuf: vcw import's service calls reach the collector as protobuf, flushed at exit", async () => {
    const collector = await startHttpServer((_req, res) => sendJson(res, 200, {}));
    try {
      const home = tempDir("vcw-otlp-proto-");
      const file = join(home, "few.csv");
      writeFileSync(file, contactsCsv(3, { from: 62_000 }));
      const segment = `proto-${randomBytes(3).toString("hex")}`;
      const env = cliEnv(home, t.sim.url, {
        OTEL_TRACES_EXPORTER: "otlp",
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: collector.url.replace("/api/v1", "/v1/traces"),
      });
      const run = await runCli(["import", file, "--segment", segment, "--country", "US"], env, 120_000);
      expect(run.code, run.stderr).toBe(0);
      const exports = collector.requests.filter((r) => r.url === "/v1/traces");
      expect(exports.length).toBeGreaterThan(0);
      expect(exports[0]!.headers["content-type"]).toBe("application/x-protobuf");
      // Protobuf keeps strings as they are: the spans' names and keys are readable in the bytes.
      const body = exports.map((r) => r.body).join("");
      for (const text of ["vcs segments.create", "vcs contacts.create", "vcs.attempt", "vcw.ledger.seed"])
        expect(body).toContain(text);
      for (let i = 0; i < 3; i++) expect(body).not.toContain(phoneOf(62_000 + i).slice(2));
      expect(body).not.toContain(API_KEY);
    } finally {
      await collector.close();
    }
  }, 180_000);
});
