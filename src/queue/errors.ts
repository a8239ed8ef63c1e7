import { VcwError } from "../lib/vcw-error.ts";

/**
 * Work this process lacks the definition for (a job or a sink another daemon has, as in a rolling
 * deploy): never a failure. The worker hands the job back to the queue, delayed, for a process
 * that has it.
 */
export class NotDefinedHereError extends VcwError {
  override name = "NotDefinedHereError";
  constructor(
    readonly what: "job" | "sink",
    readonly definition: string,
  ) {
    super(`no ${what} definition named "${definition}" is loaded in this process: handed back to the queue`);
  }
}
