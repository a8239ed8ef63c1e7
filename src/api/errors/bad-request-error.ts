import { APIError } from "./api-error.ts";

/** 400 Bad Request: the service rejected the request. */
export class BadRequestError extends APIError {
  override name = "BadRequestError";
}
