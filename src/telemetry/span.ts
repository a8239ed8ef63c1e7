import type { Attributes, Context, Span } from "@opentelemetry/api";
import { type Tracing, tracing } from "./tracing.ts";

export interface SpanOptions {
  attributes?: Attributes;
  /**
   * A trace context kept from earlier (`traceCarrier()`): the span joins that trace instead of
   * the current one, and links back to the current span.
   */
  carrier?: string | undefined;
}

/**
 * Runs `work` in a span named `name`, ended when `work` settles; an error is recorded on it and
 * thrown on. With traces off it is `work(undefined)` and nothing else.
 */
export function inSpan<T>(
  name: string,
  o: SpanOptions,
  work: (span: Span | undefined) => Promise<T>,
): Promise<T> {
  const t = tracing();
  if (!t) return work(undefined);
  const current = t.api.context.active();
  const parent = o.carrier ? contextOf(t, o.carrier) : current;
  const here = parent === current ? undefined : t.api.trace.getSpanContext(current);
  const options = { attributes: o.attributes ?? {}, ...(here ? { links: [{ context: here }] } : {}) };
  return t.tracer.startActiveSpan(name, options, parent, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: t.api.SpanStatusCode.ERROR, message: (error as Error)?.message });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** The current trace context as text (W3C traceparent in JSON, as bullmq-otel writes it), or undefined. */
export function traceCarrier(): string | undefined {
  const t = tracing();
  const current = t?.api.context.active();
  if (!t || !current || !t.api.trace.getSpanContext(current)) return undefined;
  const carrier: Record<string, string> = {};
  t.api.propagation.inject(current, carrier);
  return Object.keys(carrier).length > 0 ? JSON.stringify(carrier) : undefined;
}

function contextOf(t: Tracing, carrier: string): Context {
  try {
    return t.api.propagation.extract(t.api.ROOT_CONTEXT, JSON.parse(carrier) as Record<string, string>);
  } catch {
    return t.api.context.active(); // unreadable: the span stays in the current trace
  }
}
