import type { Telemetry } from "bullmq";
import { tracing } from "./tracing.ts";

/**
 * BullMQ's `telemetry` option for a Queue or a Worker (bullmq-otel): a job added in a span carries
 * that span's context in its options, and the worker processes it in a child span. `{}` when off,
 * so BullMQ runs without telemetry at all.
 */
export function queueTelemetry(): { telemetry?: Telemetry } {
  const t = tracing();
  return t ? { telemetry: t.bullmq } : {};
}
