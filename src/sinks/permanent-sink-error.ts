import { SinkError } from "./sink-error.ts";

/** The receiver refused for good (an SMTP 5xx reply): the delivery fails at once, with its words. */
export class PermanentSinkError extends SinkError {
  override name = "PermanentSinkError";
  override get permanent(): boolean {
    return true;
  }
}
