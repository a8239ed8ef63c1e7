import type * as Api from "@opentelemetry/api";
import type { SpanExporter } from "@opentelemetry/sdk-trace";
import type { BullMQOtel } from "bullmq-otel";
import { withTimeout } from "../lib/with-timeout.ts";
import { traceSettings } from "./settings.ts";
import { missingTracePackage } from "./trace-packages.ts";

/** Traces as they run in this process: present only once started (OTEL_TRACES_EXPORTER set). */
export interface Tracing {
  api: typeof Api;
  tracer: Api.Tracer;
  /** For BullMQ's `telemetry` option: job context carried through job options. */
  bullmq: BullMQOtel;
  shutdown(): Promise<void>;
}

let active: Tracing | undefined;

/** The running traces, or undefined: every caller does nothing more than this check when off. */
export const tracing = (): Tracing | undefined => active;

/**
 * Starts traces when the OTEL_* variables ask for them; otherwise loads nothing (not even the API).
 * Throws TelemetryConfigError for a variable vcw can't honour, or when the OpenTelemetry packages
 * (optional peers) are not installed. `exporter` replaces the ones the
 * variables name (tests: the SDK's InMemorySpanExporter).
 */
export async function startTracing(
  o: { env?: NodeJS.ProcessEnv; version?: string; exporter?: SpanExporter } = {},
): Promise<Tracing | undefined> {
  const env = o.env ?? process.env;
  const settings = o.exporter ? { exporters: [], protocol: "http/protobuf" as const } : traceSettings(env);
  if (!settings || active) return active;
  const [api, { BullMQOtel }, { startSdk }] = await Promise.all([
    import("@opentelemetry/api"),
    import("bullmq-otel"),
    import("./sdk.ts"),
  ]).catch((error: unknown) => {
    throw missingTracePackage(error) ?? error;
  });
  const version = o.version ?? "unknown";
  const sdk = startSdk(settings, { env, version, ...(o.exporter ? { exporter: o.exporter } : {}) });
  active = {
    api,
    tracer: api.trace.getTracer("vcw", version),
    bullmq: new BullMQOtel({ tracerName: "bullmq", version }),
    shutdown: () => sdk.shutdown(),
  };
  return active;
}

/** Sends what is still buffered and stops (bounded: an unreachable collector holds no exit). */
export async function stopTracing(timeoutMs = 5_000): Promise<void> {
  const t = active;
  if (!t) return;
  active = undefined;
  await withTimeout(
    t.shutdown().catch(() => undefined),
    timeoutMs,
    undefined,
  );
  t.api.trace.disable();
  t.api.context.disable();
  t.api.propagation.disable();
}
