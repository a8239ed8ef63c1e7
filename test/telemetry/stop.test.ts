import { once } from "node:events";
import { createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cliEnv, spawnVcw } from "../support/cli.ts";
import { contactsCsv, drop, waitFor, writeJob } from "../support/daemon.ts";
import { tempDir } from "../support/files.ts";

/** A collector that accepts connections and never answers (a hung one), counting what reached it. */
async function hungCollector(): Promise<{ url: string; connections: () => number; close(): void }> {
  const sockets: Socket[] = [];
  const server: Server = createServer((s) => {
    sockets.push(s);
    s.on("data", () => {});
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    connections: () => sockets.length,
    close: () => {
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
}

/** A port nothing listens on: a collector that is down. */
async function downCollector(): Promise<string> {
  const server = createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

describe("item 12: OTLP traces on, the collector hung or down", () => {
  const hung = hungCollector();
  afterAll(async () => (await hung).close());

  it.each(["hung", "down"] as const)(
    "vcw start stops within 5 s of SIGTERM, and OpenTelemetry's errors are log lines, not raw stacks (collector %s)",
    async (which) => {
      const endpoint = which === "hung" ? (await hung).url : await downCollector();
      const home = tempDir("vcw-otel-stop-");
      writeJob(join(home, "jobs"), "traced", join(home, "inbox"));
      const env = cliEnv(home, "", {
        VCS_BASE_URL: "",
        VCW_HTTP_ADDR: "off",
        VCW_STABLE_MS: "200",
        OTEL_TRACES_EXPORTER: "otlp",
        OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
        OTEL_BSP_SCHEDULE_DELAY: "500",
      });
      const vcw = spawnVcw(["start"], env);
      try {
        await waitFor(() => (vcw.logs().includes("daemon running") ? true : undefined), 60_000, "daemon up");
        drop(join(home, "inbox"), "leads.csv", contactsCsv(5));
        // Spans of the import reached the exporter, and it failed to send them at least once.
        await waitFor(
          () => (/"component":"traces"|"stack":/.test(vcw.logs()) ? true : undefined),
          30_000,
          "an export failure",
        );
        if (which === "hung") expect((await hung).connections()).toBeGreaterThan(0);
        const asked = performance.now();
        vcw.child.kill("SIGTERM");
        await vcw.exited;
        const took = performance.now() - asked;
        expect(vcw.child.exitCode).toBe(0);
        expect(took, `stopped in ${Math.round(took)} ms`).toBeLessThan(5_000);
        const lines = vcw.logs().trim().split("\n");
        const raw = lines.filter((l) => !/^\{"level":\d+,/.test(l));
        expect(raw, "lines outside the log format").toEqual([]);
        const traces = lines.map((l) => JSON.parse(l)).filter((l) => l.component === "traces");
        expect(traces.length).toBeGreaterThan(0);
        for (const t of traces) {
          expect(t.msg).toMatch(
            which === "hung" ? /^traces: Request timed out/ : /^traces: connect ECONNREFUSED/,
          );
          expect(JSON.stringify(t)).not.toContain("stack");
        }
      } finally {
        if (vcw.child.exitCode === null) vcw.child.kill("SIGKILL");
      }
    },
    120_000,
  );
});
