import { APIError, type APIErrorDetails } from "./api-error.ts";

/**
 * A success response whose body is larger than `maxResponseBytes`. Reading stopped at the cap; it
 * is not retried (the same body would come again). For a create it is the cause of an
 * AmbiguousWriteError: the service answered, so it may have applied the write.
 */
export class ResponseTooLargeError extends APIError {
  override name = "ResponseTooLargeError";
  readonly maxResponseBytes: number;

  constructor(details: APIErrorDetails & { maxResponseBytes: number }) {
    super(
      details,
      `the response body is larger than the cap of ${details.maxResponseBytes} bytes (maxResponseBytes)`,
    );
    this.maxResponseBytes = details.maxResponseBytes;
  }
}
