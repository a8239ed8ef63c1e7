import { TimeoutError } from "ky";

/** The longest timer Node (and ky, which refuses a longer `timeout`) can set. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * How many times the configured timeout one attempt of a read may wait, at most. Doubling from the
 * timeout reaches it at the third attempt, the last one with the default two retries: a read's
 * worst case goes from 3 to 7 times the timeout (70 s by default), a bound an operator can still
 * reason about, and a service answering up to 4 times slower than the timeout is answered.
 */
export const READ_PATIENCE = 4;

/**
 * The timeouts of one read's attempts (docs/decisions/0053): the configured one first, then twice
 * the previous after each attempt that timed out, up to READ_PATIENCE times the configured one. A
 * service consistently slower than the timeout answers a retry instead of timing out every attempt.
 */
export function readTimeouts(timeoutMs: number) {
  const maxMs = Math.min(MAX_TIMER_MS, timeoutMs * READ_PATIENCE);
  let currentMs = Math.min(timeoutMs, maxMs);
  return {
    /** The longest an attempt may take: ky's own timeout, a backstop. */
    maxMs,
    /** The timeout of the attempt about to start (or of the last one). */
    current: () => currentMs,
    /** The attempt timed out: the next one waits longer. */
    timedOut() {
      currentMs = Math.min(maxMs, currentMs * 2);
    },
  };
}

/**
 * ky's fetch with a timeout read as each attempt starts: ky's `timeout` is one number for every
 * attempt, and its hooks can't change it (ky 2.1: they get frozen options without it). When it
 * expires the attempt is aborted, its body reading too (`wholeBodyFetch` and `streamingFetch` watch
 * the request's signal), and it fails with ky's own TimeoutError, retried by ky like its own.
 */
export function attemptTimedFetch(inner: typeof fetch, timeoutMs: () => number): typeof fetch {
  return (input, init) => {
    // ky passes a Request, and in `init` only the options Request doesn't know.
    const request = input instanceof Request ? input : new Request(input, init);
    const expired = new AbortController();
    const attempt = new Request(request, { signal: AbortSignal.any([request.signal, expired.signal]) });
    return new Promise<Response>((resolve, reject) => {
      const timer = setTimeout(() => {
        expired.abort();
        reject(new TimeoutError(request));
      }, timeoutMs());
      inner(attempt, input instanceof Request ? init : undefined)
        .then(resolve, reject)
        .finally(() => clearTimeout(timer));
    });
  };
}
