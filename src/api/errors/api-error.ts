import { VcwError } from "./vcw-error.ts";

export interface APIErrorDetails {
  /** Operation name, e.g. `segments.create`. */
  operation: string;
  /** HTTP status, absent when no response arrived. */
  status?: number | undefined;
  /** The Error object's integer `error` code. */
  code?: number | undefined;
  /** The Error object's `message`, or the status text when the body had none. */
  apiMessage?: string | undefined;
  /** The service's request id header, when it sent one. */
  requestId?: string | undefined;
  cause?: unknown;
}

/** A request that reached the service (or tried to) and failed. */
export class APIError extends VcwError {
  override name = "APIError";
  readonly operation: string;
  readonly status: number | undefined;
  readonly code: number | undefined;
  readonly apiMessage: string | undefined;
  readonly requestId: string | undefined;

  constructor(details: APIErrorDetails, summary?: string) {
    super(
      APIError.describe(details, summary),
      details.cause === undefined ? undefined : { cause: details.cause },
    );
    this.operation = details.operation;
    this.status = details.status;
    this.code = details.code;
    this.apiMessage = details.apiMessage;
    this.requestId = details.requestId;
  }

  private static describe(d: APIErrorDetails, summary?: string): string {
    const parts = [`${d.operation} failed`];
    if (d.status !== undefined) parts.push(`with HTTP ${d.status}`);
    let text = parts.join(" ");
    const detail = [summary, d.apiMessage].filter(Boolean).join(": ");
    if (detail) text += `: ${detail}`;
    if (d.code !== undefined) text += ` (error ${d.code})`;
    if (d.requestId) text += ` [request ${d.requestId}]`;
    return text;
  }
}
