import { DelayedError, type Job } from "bullmq";

/**
 * Hands a job back to the delayed set until `at` (epoch ms), not counted as an attempt. Without a
 * worker token (a processor called by hand) it cannot wait: `orElse` is the failure thrown instead.
 */
export async function delayJob(
  job: Job,
  token: string | undefined,
  at: number,
  orElse?: Error,
): Promise<never> {
  if (!token) throw orElse ?? new Error(`job ${job.id} cannot wait without a worker token`);
  await job.moveToDelayed(at, token);
  throw new DelayedError();
}
