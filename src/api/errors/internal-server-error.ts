import { APIError } from "./api-error.ts";

/** 5xx: the service failed. */
export class InternalServerError extends APIError {
  override name = "InternalServerError";
}
