import type { Job } from "bullmq";
import type { Payload } from "../../pipeline/reports/model.ts";
import type { DeliveryJobData, Queues } from "../queues.ts";

export interface FailedDelivery {
  id: string | undefined;
  sink: string;
  kind: Payload["kind"];
  campaign: string | null;
  attempts: number;
  failedAt: string | null;
  reason: string;
}

export interface RetryingDelivery extends Omit<FailedDelivery, "failedAt"> {
  /** About when the next attempt is due (the last attempt's start plus its backoff). */
  nextAttemptAt: string | null;
}

/** The latest deliveries that gave up, at most `n`. */
export async function failedDeliveries(queues: Queues, n: number): Promise<FailedDelivery[]> {
  const jobs = await queues.deliveries.getJobs(["failed"], 0, n - 1);
  return jobs.filter(Boolean).map((j: Job<DeliveryJobData>) => ({
    ...deliveryOf(j),
    failedAt: j.finishedOn ? new Date(j.finishedOn).toISOString() : null,
  }));
}

/** Delayed deliveries that have failed an attempt (a delivery enqueued with a delay has not), at most `n`. */
export async function retryingDeliveries(queues: Queues, n: number): Promise<RetryingDelivery[]> {
  const jobs = await queues.deliveries.getJobs(["delayed"], 0, 4 * n - 1);
  return jobs
    .filter((j): j is Job<DeliveryJobData> => Boolean(j) && j.attemptsMade > 0)
    .slice(0, n)
    .map((j) => ({
      ...deliveryOf(j),
      nextAttemptAt: j.delay > 0 ? new Date((j.processedOn ?? j.timestamp) + j.delay).toISOString() : null,
    }));
}

/** What the read model shows of any delivery job. */
function deliveryOf(j: Job<DeliveryJobData>) {
  const p = j.data.payload;
  return {
    id: j.id,
    sink: j.data.sink,
    kind: p.kind,
    campaign: "campaign" in p ? p.campaign.name : null,
    attempts: j.attemptsMade,
    reason: j.failedReason ?? "",
  };
}
