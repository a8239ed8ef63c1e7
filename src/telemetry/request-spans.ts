import type { AttemptRecord, RequestObserver } from "../api/observer.ts";
import { tracing } from "./tracing.ts";

/**
 * A span per attempt of every request to the service, in the trace of whatever sent it: the
 * operation, the attempt and how it ended. The observer's record carries no URL, id, header or
 * body (observer.ts), so no key, phone or payload can reach a span through it. Undefined when off.
 */
export function requestSpans(): RequestObserver | undefined {
  const t = tracing();
  if (!t) return undefined;
  return (a: AttemptRecord) => {
    const end = Date.now();
    const status = Number(a.status);
    const span = t.tracer.startSpan(
      `vcs ${a.operation}`,
      {
        kind: t.api.SpanKind.CLIENT,
        startTime: end - a.durationMs,
        attributes: {
          "vcs.operation": a.operation,
          "vcs.attempt": a.attempt,
          "vcs.outcome": a.status,
          ...(Number.isInteger(status) ? { "http.response.status_code": status } : {}),
        },
      },
      t.api.context.active(),
    );
    if (!(status >= 200 && status < 400))
      span.setStatus({ code: t.api.SpanStatusCode.ERROR, message: a.status });
    span.end(end);
  };
}

/** Both observers (metrics, spans), either, or none. */
export function withRequestSpans(observer: RequestObserver | undefined): RequestObserver | undefined {
  const spans = requestSpans();
  if (!spans || !observer) return spans ?? observer;
  return (a) => {
    observer(a);
    spans(a);
  };
}
