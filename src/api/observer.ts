import { ResponseTooLargeError } from "./errors/index.ts";
import type { OperationName } from "./operations.ts";
import type { Fetch, Signal } from "./web-types.ts";

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

/** Wraps the fetch ky calls, so each attempt is timed up to its whole body. */
export function observedFetch(
  fetch: Fetch,
  operation: OperationName,
  observer: RequestObserver,
  userSignal: Signal | undefined,
): Fetch {
  let attempts = 0;
  return async (input, init) => {
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
      const response = await fetch(input, init);
      report(String(response.status));
      return response;
    } catch (error) {
      report(endedHow(error, userSignal));
      throw error;
    }
  };
}

function endedHow(error: unknown, userSignal: Signal | undefined): string {
  if (error instanceof ResponseTooLargeError) return "too_large";
  const name = (error as { name?: string })?.name;
  // ky's timeout aborts the attempt; the caller's own signal is an abort, not a timeout.
  if (name === "AbortError" || name === "TimeoutError") return userSignal?.aborted ? "aborted" : "timeout";
  return "network";
}
