import { VcwError } from "../lib/vcw-error.ts";

/** A delivery failed; BullMQ retries it with backoff, then keeps it in the failed set. */
export class SinkError extends VcwError {
  override name = "SinkError";
  constructor(
    readonly sink: string,
    message: string,
    readonly status?: number,
  ) {
    super(`sink ${sink}: ${message}`);
  }
}
