import type { Attributes, AttributeValue } from "@opentelemetry/api";
import type { ExportResult } from "@opentelemetry/core";
import type { ReadableSpan, SpanExporter } from "@opentelemetry/sdk-trace";
import { scrubSecrets } from "../api/secrets.ts";
import { maskPhonesIn } from "../lib/mask-phone.ts";

/** Variables whose values are secrets by their name: never sent in a span, whatever put them there. */
const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL/i;

/** The values of the secret-looking variables (at least 8 characters: shorter ones are not secrets). */
export function secretValuesOf(env: NodeJS.ProcessEnv): string[] {
  return Object.entries(env)
    .filter(([name, value]) => SECRET_NAME.test(name) && value !== undefined && value.length >= 8)
    .map(([, value]) => value as string);
}

/**
 * The last guard before spans leave the process: every string a span carries (its name, status,
 * attributes, events: an exception's message and stack) has phone-like runs masked and known
 * secret values replaced. vcw's own spans carry neither; a library's span or an error's text might.
 */
export function maskedExporter(inner: SpanExporter, secrets: readonly string[]): SpanExporter {
  const text = (s: string) => scrubSecrets(maskPhonesIn(s), secrets);
  const value = (v: AttributeValue | undefined): AttributeValue | undefined => {
    if (typeof v === "string") return text(v);
    if (Array.isArray(v)) return v.map((x) => (typeof x === "string" ? text(x) : x)) as AttributeValue;
    return v;
  };
  const attributes = (a: Attributes | undefined): Attributes =>
    Object.fromEntries(Object.entries(a ?? {}).map(([k, v]) => [k, value(v)]));
  const masked = (span: ReadableSpan): ReadableSpan => ({
    name: text(span.name),
    kind: span.kind,
    spanContext: () => span.spanContext(),
    ...(span.parentSpanContext ? { parentSpanContext: span.parentSpanContext } : {}),
    startTime: span.startTime,
    endTime: span.endTime,
    status: span.status.message ? { ...span.status, message: text(span.status.message) } : span.status,
    attributes: attributes(span.attributes),
    links: span.links.map((l) => ({ ...l, attributes: attributes(l.attributes) })),
    events: span.events.map((e) => ({ ...e, name: text(e.name), attributes: attributes(e.attributes) })),
    duration: span.duration,
    ended: span.ended,
    resource: span.resource,
    instrumentationScope: span.instrumentationScope,
    droppedAttributesCount: span.droppedAttributesCount,
    droppedEventsCount: span.droppedEventsCount,
    droppedLinksCount: span.droppedLinksCount,
  });
  return {
    export: (spans: ReadableSpan[], done: (result: ExportResult) => void) =>
      inner.export(spans.map(masked), done),
    shutdown: () => inner.shutdown(),
    ...(inner.forceFlush ? { forceFlush: () => inner.forceFlush!() } : {}),
  };
}
