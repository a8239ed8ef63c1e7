import type * as Api from "@opentelemetry/api";
import type { SpanExporter } from "@opentelemetry/sdk-trace";
import type { BullMQOtel } from "bullmq-otel";
import { withTimeout } from "../lib/with-timeout.ts";
import { diagLog, type TraceLog } from "./diag-log.ts";
import { secretValuesOf } from "./masked-exporter.ts";
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
  o: {
    env?: NodeJS.ProcessEnv;
    version?: string;
    exporter?: SpanExporter;
    /** vcw's log, for OpenTelemetry's own messages (made only when traces are on). */
    log?: () => Promise<TraceLog>;
  } = {},
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
  // The SDK set its console logger, which prints an exporter's failure as a raw JSON stack: ours instead.
  if (o.log) {
    const level = (env.OTEL_LOG_LEVEL ?? "warn").trim().toUpperCase();
    api.diag.setLogger(diagLog(await o.log(), secretValuesOf(env)), {
      logLevel: api.DiagLogLevel[level as keyof typeof api.DiagLogLevel] ?? api.DiagLogLevel.WARN,
      suppressOverrideMessage: true,
    });
  }
  active = {
    api,
    tracer: api.trace.getTracer("vcw", version),
    bullmq: new BullMQOtel({ tracerName: "bullmq", version }),
    shutdown: () => sdk.shutdown(),
  };
  return active;
}

/**
 * Sends what is still buffered and stops, within `timeoutMs` (an unreachable collector holds no
 * exit). Resolves false when it gave up: the exporter may still hold a request or a retry's timer,
 * which the caller must not wait for.
 */
export async function stopTracing(timeoutMs = STOP_BUDGET_MS): Promise<boolean> {
  const t = active;
  if (!t) return true;
  active = undefined;
  const done = await withTimeout(
    t.shutdown().then(
      () => true,
      () => true,
    ),
    timeoutMs,
    false,
  );
  t.api.diag.disable();
  t.api.trace.disable();
  t.api.context.disable();
  t.api.propagation.disable();
  return done;
}

/** What a stop gives the spans still buffered: the daemon's whole stop stays under the documented 5 s. */
export const STOP_BUDGET_MS = 3_000;
