import { APIError } from "./api-error.ts";

/**
 * A non-idempotent request (a create) failed in a way that does not tell whether the service
 * applied it: a timeout, a 5xx, a connection lost after sending. It was not retried; the caller
 * must look at the service's state (e.g. list the segment's contacts) before sending it again.
 * `cause` is the underlying error.
 */
export class AmbiguousWriteError extends APIError {
  override name = "AmbiguousWriteError";
  declare readonly cause: APIError;

  constructor(cause: APIError) {
    super(
      {
        operation: cause.operation,
        status: cause.status,
        code: cause.code,
        apiMessage: cause.apiMessage,
        requestId: cause.requestId,
        cause,
      },
      `outcome unknown, the write may or may not have been applied (${cause.name})`,
    );
  }
}
