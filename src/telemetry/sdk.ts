import { getNumberFromEnv } from "@opentelemetry/core";
import { OTLPTraceExporter as OtlpJsonExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as OtlpProtobufExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import {
  defaultResource,
  hostDetector,
  osDetector,
  type ResourceDetector,
  resourceFromAttributes,
  serviceInstanceIdDetector,
  serviceNameEnvDetector,
} from "@opentelemetry/resources";
import { startNodeSdk } from "@opentelemetry/sdk-node";
import {
  BatchSpanProcessor,
  ConsoleSpanExporter,
  SimpleSpanProcessor,
  type SpanExporter,
  type SpanProcessor,
} from "@opentelemetry/sdk-trace";
import { maskedExporter, secretValuesOf } from "./masked-exporter.ts";
import type { TraceSettings } from "./settings.ts";

/**
 * The one file that loads the OpenTelemetry SDK (tracing.ts imports it only when traces are on).
 * The SDK reads the standard variables (sampler, limits, propagators, resource, OTEL_LOG_LEVEL);
 * the exporters read theirs (endpoint, headers, timeout, compression). vcw picks the exporters
 * itself only to put the masking exporter in front of each.
 */
export function startSdk(
  settings: TraceSettings,
  o: { env: NodeJS.ProcessEnv; version: string; exporter?: SpanExporter },
): { shutdown(): Promise<void> } {
  const secrets = secretValuesOf(o.env);
  // A given exporter (the tests' in-memory one) gets each span as it ends, masked all the same.
  const processors: SpanProcessor[] = o.exporter
    ? [new SimpleSpanProcessor({ exporter: maskedExporter(o.exporter, secrets) })]
    : settings.exporters.map((name) => processorFor(name, settings, secrets));
  return startNodeSdk({
    logLevel: o.env.OTEL_LOG_LEVEL ?? "warn",
    baseResource: defaultResource().merge(
      resourceFromAttributes({ "service.name": "vcw", "service.version": o.version }),
    ),
    ...(o.env.OTEL_NODE_RESOURCE_DETECTORS ? {} : { resourceDetectors: DETECTORS }),
    spanProcessors: processors,
    // Traces only: metrics are prom-client's (/metrics), logs pino's.
    metricReaders: [],
    logRecordProcessors: [],
  });
}

/**
 * The SDK's default detectors less `process`: it sends the command line, and `vcw contact +1…`
 * carries a phone number on it. OTEL_NODE_RESOURCE_DETECTORS still chooses, when set.
 */
const DETECTORS: ResourceDetector[] = [
  serviceInstanceIdDetector,
  serviceNameEnvDetector,
  hostDetector,
  osDetector,
];

function processorFor(name: TraceSettings["exporters"][number], s: TraceSettings, secrets: string[]) {
  if (name === "console")
    return new SimpleSpanProcessor({ exporter: maskedExporter(new ConsoleSpanExporter(), secrets) });
  const exporter: SpanExporter =
    s.protocol === "http/json" ? new OtlpJsonExporter() : new OtlpProtobufExporter();
  // The OTEL_BSP_* variables, as the SDK reads them when it builds the processor itself.
  return new BatchSpanProcessor({
    exporter: maskedExporter(exporter, secrets),
    ...defined({
      scheduledDelayMillis: getNumberFromEnv("OTEL_BSP_SCHEDULE_DELAY"),
      maxQueueSize: getNumberFromEnv("OTEL_BSP_MAX_QUEUE_SIZE"),
      maxExportBatchSize: getNumberFromEnv("OTEL_BSP_MAX_EXPORT_BATCH_SIZE"),
      exportTimeoutMillis: getNumberFromEnv("OTEL_BSP_EXPORT_TIMEOUT"),
    }),
  });
}

const defined = <T extends object>(o: T): Partial<T> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
