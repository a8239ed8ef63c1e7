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

  /** 410 Gone: the receiver asks to be sent nothing more (Standard Webhooks); retrying is pointless. */
  get permanent(): boolean {
    return this.status === 410;
  }
}
