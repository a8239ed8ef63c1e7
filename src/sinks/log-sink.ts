import type { Logger } from "pino";
import type { Delivery, Sink } from "./delivery.ts";

/** The summary as one structured log line. */
export function logSink(logger: Logger): Sink {
  return {
    async deliver(d: Delivery) {
      logger.info(
        { summary: d.payload, idempotencyKey: d.idempotencyKey },
        `campaign summary (${d.payload.kind})`,
      );
    },
  };
}
