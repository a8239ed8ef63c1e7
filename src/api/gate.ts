import type { Signal } from "./web-types.ts";

/** What one attempt of a request looked like, for a gate that adapts its rate. */
export interface AttemptOutcome {
  /** HTTP status, or undefined when no response came (timeout, connection error). */
  status: number | undefined;
  /** No response within the timeout: the service may be overloaded. */
  timedOut: boolean;
  latencyMs: number;
}

/**
 * Admits each attempt of a request (retries included) before it is sent, and hears how it went.
 * The client stays free of any particular limiter; the daemon passes a Redis-shared one.
 * `acquire` runs before the attempt's timeout starts, so waiting here never looks like a timeout.
 */
export interface RequestGate {
  acquire(signal?: Signal): Promise<void>;
  observe(outcome: AttemptOutcome): void;
}
