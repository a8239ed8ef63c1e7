import { UnrecoverableError } from "bullmq";
import { isPermanent } from "../pipeline/errors.ts";

/**
 * Runs a processor's work; a failure no retry can cure fails the job at once (BullMQ's
 * UnrecoverableError) with its reason, everything else is retried with backoff.
 */
export async function failFastOnPermanent<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isPermanent(error) && !(error instanceof UnrecoverableError)) {
      throw new UnrecoverableError((error as Error).message);
    }
    throw error;
  }
}
