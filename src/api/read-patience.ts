/** The longest timer Node can set. */
export const MAX_TIMER_MS = 2_147_483_647;

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
    /** The timeout of the attempt about to start (or of the last one). */
    current: () => currentMs,
    /** The attempt timed out: the next one waits longer. */
    timedOut() {
      currentMs = Math.min(maxMs, currentMs * 2);
    },
  };
}
