import { type Job, UnrecoverableError } from "bullmq";
import { SinkError } from "../sinks/sink-error.ts";
import { createSink } from "./create-sink.ts";
import { NotDefinedHereError, SinkBusyError } from "./errors.ts";
import type { DeliveryJobData } from "./queues.ts";
import type { WorkDeps } from "./work-deps.ts";

/** Deliveries to one sink at once, per process, unless told: a slow receiver holds no more than this. */
export const SINK_CONCURRENCY = 4;

/**
 * Delivers one payload to one sink; a failure is retried with backoff, then kept in the failed set.
 * Each sink has `perSink` slots in this process: a delivery to a sink whose slots are all busy (a
 * receiver that takes 30 s to answer) goes back to the queue, so the worker's other slots stay free
 * for the other sinks.
 */
export function createDeliveryProcessor(d: WorkDeps, o: { perSink?: number } = {}) {
  const perSink = o.perSink ?? SINK_CONCURRENCY;
  const busy = new Map<string, number>();
  return async function processDelivery(job: Job<DeliveryJobData>): Promise<void> {
    const { sink: name, payload, idempotencyKey } = job.data;
    const def = d.sinks()[name];
    if (!def) throw new NotDefinedHereError("sink", name);
    const inFlight = busy.get(name) ?? 0;
    if (inFlight >= perSink) throw new SinkBusyError(name);
    busy.set(name, inFlight + 1);
    const campaignId = "campaign" in payload ? payload.campaign.id : undefined;
    try {
      const sink = createSink(name, def, { logger: d.logger.child({ sink: name }) });
      await sink.deliver({
        idempotencyKey,
        payload,
        ...(campaignId ? { records: () => d.store.allRecords(campaignId) } : {}),
      });
    } catch (error) {
      // A 410 ends the delivery at once: it fails without going through the retry schedule.
      if (error instanceof SinkError && error.permanent) throw new UnrecoverableError(error.message);
      throw error;
    } finally {
      busy.set(name, (busy.get(name) ?? 1) - 1);
    }
  };
}
