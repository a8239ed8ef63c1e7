import { VcwError } from "../lib/vcw-error.ts";

/**
 * Work this process should not run now: never a failure. The worker hands the job back to the
 * queue, delayed and not counted as an attempt (start-worker.ts).
 */
export class HandBackError extends VcwError {
  override name = "HandBackError";
  constructor(
    message: string,
    /** Said in the log (once a minute per `topic`): an operator may have to act. */
    readonly warn: boolean,
    readonly topic: string,
  ) {
    super(message);
  }
}

/** Work this process lacks the definition for (a job or sink another daemon has, in a rolling deploy). */
export class NotDefinedHereError extends HandBackError {
  override name = "NotDefinedHereError";
  constructor(what: "job" | "sink", definition: string) {
    super(
      `no ${what} definition named "${definition}" is loaded in this process: handed back to the queue`,
      true,
      `${what}:${definition}`,
    );
  }
}

/** A sink with all its delivery slots taken here (a slow receiver): its next delivery waits its turn. */
export class SinkBusyError extends HandBackError {
  override name = "SinkBusyError";
  constructor(sink: string) {
    super(`sink "${sink}" has every delivery slot of this process busy: handed back`, false, `busy:${sink}`);
  }
}
