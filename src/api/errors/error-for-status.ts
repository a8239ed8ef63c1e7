import { APIError, type APIErrorDetails } from "./api-error.ts";
import { AuthenticationError } from "./authentication-error.ts";
import { BadRequestError } from "./bad-request-error.ts";
import { ConflictError } from "./conflict-error.ts";
import { InternalServerError } from "./internal-server-error.ts";
import { NotFoundError } from "./not-found-error.ts";
import { PermissionDeniedError } from "./permission-denied-error.ts";
import { RateLimitError } from "./rate-limit-error.ts";

/** The error class for an HTTP failure status. */
export function errorForStatus(
  status: number,
  details: APIErrorDetails & { retryAfterMs?: number | undefined },
): APIError {
  if (status === 400) return new BadRequestError(details);
  if (status === 401) return new AuthenticationError(details);
  if (status === 403) return new PermissionDeniedError(details);
  if (status === 404) return new NotFoundError(details);
  if (status === 409) return new ConflictError(details);
  if (status === 429) return new RateLimitError(details);
  if (status >= 500) return new InternalServerError(details);
  return new APIError(details);
}
