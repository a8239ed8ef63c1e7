import type { Logger } from "pino";
import type { Delivery, Sink } from "../delivery.ts";

/** The summary as one structured log line. */
export function logSink(logger: Logger): Sink {
  return {
    async deliver(d: Delivery) {
      const p = d.payload;
      // A report's campaign list may be long: the log gets its headline figures.
      if (p.kind === "report")
        return logger.info(
          {
            report: { job: p.job, period: p.period, totals: p.totals, problems: p.problems.length },
            idempotencyKey: d.idempotencyKey,
          },
          "report",
        );
      logger.info({ summary: p, idempotencyKey: d.idempotencyKey }, `campaign summary (${p.kind})`);
    },
  };
}
