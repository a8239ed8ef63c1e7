import { UnrecoverableError } from "bullmq";
import { givesUp } from "../pipeline/errors.ts";

/**
 * Runs a processor's work; a failure no retry can cure (`givesUp`, the one decision) fails the job
 * at once (BullMQ's UnrecoverableError) with its reason, everything else is retried with backoff.
 */
export async function failFastOnPermanent<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof UnrecoverableError) && givesUp(error, false)) {
      throw new UnrecoverableError((error as Error).message);
    }
    throw error;
  }
}
