import {
  AuthenticationError,
  BadRequestError,
  PermissionDeniedError,
  RequestValidationError,
} from "../api/errors/index.ts";
import { VcwError } from "../lib/vcw-error.ts";

/**
 * A failure no retry can cure: the job fails at once with the reason and what the operator can
 * do, instead of being retried for minutes.
 */
export class PermanentError extends VcwError {
  override name = "PermanentError";
  constructor(
    reason: string,
    /** What the operator can do about it. */
    readonly hint?: string,
  ) {
    super(hint ? `${reason}: ${hint}` : reason);
  }
}

/** Whether retrying `error` is pointless: our own verdict, or the service refusing the request itself. */
export function isPermanent(error: unknown): boolean {
  return (
    error instanceof PermanentError ||
    error instanceof RequestValidationError ||
    error instanceof BadRequestError ||
    error instanceof AuthenticationError ||
    error instanceof PermissionDeniedError
  );
}
