import type { BackoffStrategy } from "bullmq";

/** A job option's backoff type: doubling from its delay, never longer than the worker's cap. */
export const CAPPED_EXPONENTIAL = "capped-exponential";

/**
 * BullMQ's exponential backoff has no ceiling: 20 attempts from 2 s would wait 12 days before the
 * last. Capped, the same attempts span hours (2 s, 4 s, ... 34 min, then every `maxMs`), which is
 * what a receiver that is down for a deploy or a night needs.
 */
export function cappedExponential(maxMs: number): BackoffStrategy {
  return (attemptsMade, _type, _error, job) => {
    const delay = (job?.opts.backoff as { delay?: number } | undefined)?.delay ?? 1_000;
    return Math.min(maxMs, delay * 2 ** Math.max(0, attemptsMade - 1));
  };
}
