import { APIError, type APIErrorDetails } from "./api-error.ts";

/** No HTTP response arrived: refused, reset, DNS failure. `networkCode` is e.g. `ECONNREFUSED`. */
export class APIConnectionError extends APIError {
  override name = "APIConnectionError";
  readonly networkCode: string | undefined;

  constructor(details: APIErrorDetails & { networkCode?: string | undefined }, summary?: string) {
    super(details, summary ?? `connection error${details.networkCode ? ` (${details.networkCode})` : ""}`);
    this.networkCode = details.networkCode;
  }
}
