import { type Job, UnrecoverableError } from "bullmq";
import type { Payload } from "../pipeline/reports/model.ts";
import { SinkError } from "../sinks/sink-error.ts";
import { SinkBusyError } from "./errors.ts";
import type { DeliveryJobData } from "./queues.ts";

/** Deliveries to one sink at once, per process, unless told: a slow receiver holds no more than this. */
export const SINK_CONCURRENCY = 4;

/**
 * The sink a delivery names, bound once at the root (use-cases.ts): one this process lacks throws
 * (NotDefinedHereError, before a slot is taken); else what delivers a payload to it.
 */
export type SinkFor = (name: string) => (payload: Payload, idempotencyKey: string) => Promise<void>;

/**
 * Delivers one payload to one sink; a failure is retried with backoff, then kept in the failed set.
 * Each sink has `perSink` slots in this process: a delivery to a sink whose slots are all busy (a
 * receiver that takes 30 s to answer) goes back to the queue, so the worker's other slots stay free
 * for the other sinks.
 */
export function createDeliveryProcessor(sinkFor: SinkFor, o: { perSink?: number } = {}) {
  const perSink = o.perSink ?? SINK_CONCURRENCY;
  const busy = new Map<string, number>();
  return async function processDelivery(job: Job<DeliveryJobData>): Promise<void> {
    const { sink: name, payload, idempotencyKey } = job.data;
    const deliver = sinkFor(name);
    const inFlight = busy.get(name) ?? 0;
    if (inFlight >= perSink) throw new SinkBusyError(name);
    busy.set(name, inFlight + 1);
    try {
      await deliver(payload, idempotencyKey);
    } catch (error) {
      // A 410 ends the delivery at once: it fails without going through the retry schedule.
      if (error instanceof SinkError && error.permanent) throw new UnrecoverableError(error.message);
      throw error;
    } finally {
      busy.set(name, (busy.get(name) ?? 1) - 1);
    }
  };
}
