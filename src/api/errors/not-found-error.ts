import { APIError } from "./api-error.ts";

/** 404 Not Found: no such record. */
export class NotFoundError extends APIError {
  override name = "NotFoundError";
}
