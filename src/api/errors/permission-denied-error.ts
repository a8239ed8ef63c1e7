import { APIError } from "./api-error.ts";

/** 403 Forbidden: the API key may not do this. */
export class PermissionDeniedError extends APIError {
  override name = "PermissionDeniedError";
}
