import { randomBytes } from "node:crypto";
import { appendFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { callingJob } from "../support/calling-job.ts";
import { cliEnv, spawnVcw } from "../support/cli.ts";
import { contactsCsv, drop, phoneOf, waitFor } from "../support/daemon.ts";
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
});
