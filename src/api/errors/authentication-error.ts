import { APIError } from "./api-error.ts";

/** 401 Unauthorized: the API key is missing or wrong. */
export class AuthenticationError extends APIError {
  override name = "AuthenticationError";
}
