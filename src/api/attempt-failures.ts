/**
 * How one attempt of a request failed, before the transport turns it into an APIError: the
 * service's status (its body read, cut at its limit), or the attempt's timeout.
 */

/** A failure status; `text` is its body as read (up to its limit), for the message. */
export class StatusFailure extends Error {
  override name = "StatusFailure";
  constructor(
    readonly response: Response,
    readonly text: string,
  ) {
    super(`HTTP ${response.status}`);
  }
}

/** The attempt took longer than its timeout (from sending to the last byte of the body). */
export class AttemptTimeout extends Error {
  // Named like the platform's timeout, which the observer reads as a timeout (observer.ts).
  override name = "TimeoutError";
  constructor(readonly timeoutMs: number) {
    super(`the attempt took longer than ${timeoutMs} ms`);
  }
}
