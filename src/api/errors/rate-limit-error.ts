import { APIError, type APIErrorDetails } from "./api-error.ts";

/** 429 Too Many Requests: the request was not processed; it may be sent again after `retryAfterMs`. */
export class RateLimitError extends APIError {
  override name = "RateLimitError";
  readonly retryAfterMs: number | undefined;

  constructor(details: APIErrorDetails & { retryAfterMs?: number | undefined }) {
    super(details);
    this.retryAfterMs = details.retryAfterMs;
  }
}
