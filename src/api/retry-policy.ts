/** When and how long to wait before sending a request again. Pure: no I/O, no clock. */

export interface RetryOptions {
  /** Retries after the first attempt. */
  maxRetries: number;
  /** Delay before the first retry; doubles each retry. */
  baseDelayMs: number;
  /** Upper bound of a backoff delay. */
  maxDelayMs: number;
  /** Upper bound of a wait asked for by `Retry-After`. */
  retryAfterCapMs: number;
}

export const DEFAULT_RETRY: RetryOptions = {
  maxRetries: 2,
  baseDelayMs: 300,
  maxDelayMs: 8_000,
  retryAfterCapMs: 60_000,
};

export type Failure =
  | { kind: "status"; status: number }
  | { kind: "timeout" }
  | { kind: "network"; code: string | undefined }
  /** A success answer whose body can't be read: not JSON, not the schema, over the size cap. */
  | { kind: "unreadable" };

/** Network errors raised before a byte was sent: the service cannot have seen the request. */
export const NOT_SENT_CODES: ReadonlySet<string> = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN"]);

export const isRetryableStatus = (status: number) => status === 408 || status === 429 || status >= 500;

/** True when the request certainly had no effect on the service. */
export function certainlyNotApplied(failure: Failure): boolean {
  if (failure.kind === "status")
    return failure.status === 429 || (failure.status >= 400 && failure.status < 500);
  return failure.kind === "network" && failure.code !== undefined && NOT_SENT_CODES.has(failure.code);
}

/**
 * Whether sending again is safe and useful. An idempotent operation retries on anything
 * transient; a non-idempotent one only where the first attempt was certainly not processed
 * (429, refused connection), since a retry could otherwise apply it twice. An unreadable success
 * body is never sent again.
 */
export function mayRetry(failure: Failure, idempotent: boolean): boolean {
  // The service answered; asking again would most likely bring (and download) the same body.
  if (failure.kind === "unreadable") return false;
  if (failure.kind === "status") {
    if (!isRetryableStatus(failure.status)) return false;
    return idempotent || failure.status === 429;
  }
  return idempotent || certainlyNotApplied(failure);
}

/**
 * True when a failure of a non-idempotent request leaves its outcome unknown; an unreadable
 * success body is one: the service said yes, in words this client can't read.
 */
export function isAmbiguous(failure: Failure): boolean {
  if (failure.kind === "status") return failure.status >= 500 || failure.status === 408;
  return !certainlyNotApplied(failure);
}

/** Exponential backoff with "equal jitter": half fixed, half random, so retries spread out. */
export function backoffDelay(
  retry: number,
  options: RetryOptions,
  random: () => number = Math.random,
): number {
  const exponential = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** Math.max(0, retry - 1));
  return exponential / 2 + random() * (exponential / 2);
}

/** Milliseconds asked for by a `Retry-After` header (seconds or an HTTP date); undefined if unreadable. */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
