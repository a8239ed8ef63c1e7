import { APIError } from "./api-error.ts";

/** 409 Conflict: the request conflicts with the current state. */
export class ConflictError extends APIError {
  override name = "ConflictError";
}
