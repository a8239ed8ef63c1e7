import { APIConnectionError } from "./api-connection-error.ts";
import type { APIErrorDetails } from "./api-error.ts";

/** No response arrived within the request's timeout. */
export class APIConnectionTimeoutError extends APIConnectionError {
  override name = "APIConnectionTimeoutError";
  readonly timeoutMs: number;

  constructor(details: APIErrorDetails & { timeoutMs: number }) {
    super(details, `timed out after ${details.timeoutMs} ms`);
    this.timeoutMs = details.timeoutMs;
  }
}
