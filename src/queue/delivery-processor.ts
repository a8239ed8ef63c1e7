import { type Job, UnrecoverableError } from "bullmq";
import { SinkError } from "../sinks/sink-error.ts";
import { createSink } from "./create-sink.ts";
import type { DeliveryJobData } from "./queues.ts";
import type { WorkDeps } from "./work-deps.ts";

/** Delivers one payload to one sink; a failure is retried with backoff, then kept in the failed set. */
export function createDeliveryProcessor(d: WorkDeps) {
  return async function processDelivery(job: Job<DeliveryJobData>): Promise<void> {
    const { sink: name, payload, idempotencyKey } = job.data;
    const def = d.sinks()[name];
    if (!def) throw new UnrecoverableError(`no sink named "${name}" is configured`);
    const sink = createSink(name, def, { logger: d.logger.child({ sink: name }) });
    const campaignId = "campaign" in payload ? payload.campaign.id : undefined;
    try {
      await sink.deliver({
        idempotencyKey,
        payload,
        ...(campaignId ? { records: () => d.store.allRecords(campaignId) } : {}),
      });
    } catch (error) {
      // A 410 ends the delivery at once: it fails without going through the retry schedule.
      if (error instanceof SinkError && error.permanent) throw new UnrecoverableError(error.message);
      throw error;
    }
  };
}
