import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BUCKET_PACKAGES } from "../../src/inbox/bucket/bucket-packages.ts";
import { TelemetryConfigError } from "../../src/telemetry/errors.ts";
import { traceSettings } from "../../src/telemetry/settings.ts";
import { TRACE_PACKAGES } from "../../src/telemetry/trace-packages.ts";
import { runCli } from "../support/cli.ts";
import { tempDir } from "../support/files.ts";

describe("traces: which OTEL_* variables turn them on", () => {
  it("off unless OTEL_TRACES_EXPORTER names an exporter; OTEL_SDK_DISABLED wins", () => {
    expect(traceSettings({})).toBeUndefined();
    expect(traceSettings({ OTEL_TRACES_EXPORTER: "none" })).toBeUndefined();
    expect(traceSettings({ OTEL_TRACES_EXPORTER: " " })).toBeUndefined();
    expect(traceSettings({ OTEL_TRACES_EXPORTER: "otlp", OTEL_SDK_DISABLED: "true" })).toBeUndefined();
    expect(traceSettings({ OTEL_TRACES_EXPORTER: "console" })).toEqual({
      exporters: ["console"],
      protocol: "http/protobuf",
    });
    expect(
      traceSettings({ OTEL_TRACES_EXPORTER: "OTLP, console", OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" }),
    ).toEqual({ exporters: ["otlp", "console"], protocol: "http/json" });
    // The traces' own variable comes before the general one, as the spec says.
    expect(
      traceSettings({
        OTEL_TRACES_EXPORTER: "otlp",
        OTEL_EXPORTER_OTLP_PROTOCOL: "grpc",
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/json",
      })?.protocol,
    ).toBe("http/json");
  });

  it("a value vcw can't honour is refused, naming the variable", () => {
    const refused = (env: NodeJS.ProcessEnv) => () => traceSettings(env);
    expect(refused({ OTEL_TRACES_EXPORTER: "zipkin" })).toThrow(TelemetryConfigError);
    expect(refused({ OTEL_TRACES_EXPORTER: "otlp,jaeger" })).toThrow(/OTEL_TRACES_EXPORTER: "jaeger"/);
    expect(refused({ OTEL_TRACES_EXPORTER: "otlp", OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" })).toThrow(
      /OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" is not supported/,
    );
    expect(refused({ OTEL_TRACES_EXPORTER: "otlp", OTEL_CONFIG_FILE: "/etc/otel.yaml" })).toThrow(
      /OTEL_CONFIG_FILE is not supported/,
    );
    // The console exporter needs no protocol: a grpc one meant for other programs is no matter.
    expect(
      traceSettings({ OTEL_TRACES_EXPORTER: "console", OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" }),
    ).toBeDefined();
  });

  it("vcw --version with traces off loads no SDK module (lazy); a bad variable exits 2 with the reason", async () => {
    // Records every module resolved under @opentelemetry or bullmq-otel.
    const probe = join(tempDir("vcw-otel-probe-"), "probe.mjs");
    writeFileSync(
      probe,
      `import { registerHooks } from "node:module";
const seen = new Set();
registerHooks({ resolve(s, c, next) { const r = next(s, c); const m = /node_modules\\/((?:@[^/]+\\/)?[^/]+)/.exec(r.url); if (m && /opentelemetry|otel/.test(m[1])) seen.add(m[1]); return r; } });
process.on("exit", () => process.stderr.write("otel: " + [...seen].sort().join(",") + "\\n"));
`,
    );
    const loaded = async (env: NodeJS.ProcessEnv) => {
      const r = await runCli(["--version"], { NODE_OPTIONS: `--import ${probe}`, ...env }, 60_000);
      expect(r.code).toBe(0);
      return /otel: (.*)/.exec(r.stderr)![1]!.split(",").filter(Boolean);
    };
    // Not even the API: `--version` no longer loads prom-client, which brought it (commands load lazily).
    expect(await loaded({ OTEL_TRACES_EXPORTER: "" })).toEqual([]);
    const on = await loaded({ OTEL_TRACES_EXPORTER: "console" });
    expect(on).toContain("@opentelemetry/sdk-node");
    expect(on).toContain("bullmq-otel");

    const bad = await runCli(["--version"], { OTEL_TRACES_EXPORTER: "jaeger" }, 60_000);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^vcw: OTEL_TRACES_EXPORTER: "jaeger" is not an exporter vcw has/);
  }, 120_000);

  it("the packages traces load are optional peers (and dev dependencies), the ones the refusal names", () => {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
    // The bucket inboxes' AWS SDK is an optional peer too (bucket-packages.ts has its own check).
    expect(pkg.peerDependencies).toEqual({ ...TRACE_PACKAGES, ...BUCKET_PACKAGES });
    for (const name of Object.keys(TRACE_PACKAGES)) {
      expect(pkg.peerDependenciesMeta[name]).toEqual({ optional: true });
      expect(pkg.devDependencies[name]).toBe(TRACE_PACKAGES[name]);
      expect(pkg.dependencies[name]).toBeUndefined();
    }
  });
});
