import { StatusFailure } from "./attempt-failures.ts";
import { ResponseTooLargeError } from "./errors/index.ts";
import type { OperationName } from "./operations.ts";
import type { FetchResponse, Signal } from "./web-types.ts";

/**
 * One attempt of a request as it ended: for metrics. It carries no URL, id, header or body, so
 * nothing secret or personal can reach a metric label through it.
 */
export interface AttemptRecord {
  operation: OperationName;
  /** The HTTP status ("200", "429"), or how the attempt ended without one. */
  status: string | "timeout" | "network" | "aborted" | "too_large";
  /** From sending to the last byte of the body (waiting for the rate limit is not counted). */
  durationMs: number;
  /** Which attempt of its request: 1 for the first, 2 for the first retry. */
  attempt: number;
}

/** Hears every attempt of every request (retries included). It must not throw; it is not awaited. */
export type RequestObserver = (attempt: AttemptRecord) => void;

/**
 * Times each attempt of one request, from sending to its whole body, and tells `observer` how it
 * ended: its status (a failure status too), or how it ended without one.
 */
export function attemptObserver(
  operation: OperationName,
  observer: RequestObserver,
  userSignal: Signal | undefined,
) {
  let attempts = 0;
  return async <T>(work: () => Promise<T & { response: FetchResponse }>): Promise<T> => {
    const started = performance.now();
    const attempt = ++attempts;
    const report = (status: string) => {
      try {
        observer({ operation, status, durationMs: performance.now() - started, attempt });
      } catch {
        // an observer's failure is not the request's
      }
    };
    try {
      const done = await work();
      report(String(done.response.status));
      return done;
    } catch (error) {
      report(error instanceof StatusFailure ? String(error.response.status) : endedHow(error, userSignal));
      throw error;
    }
  };
}

function endedHow(error: unknown, userSignal: Signal | undefined): string {
  if (error instanceof ResponseTooLargeError) return "too_large";
  const name = (error as { name?: string })?.name;
  // The attempt's timeout aborts it; the caller's own signal is an abort, not a timeout.
  if (name === "AbortError" || name === "TimeoutError") return userSignal?.aborted ? "aborted" : "timeout";
  return "network";
}
