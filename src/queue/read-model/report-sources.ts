import type { Queues } from "../queues.ts";
import { campaignsNotMadeSince } from "./campaigns-not-made.ts";

/** Deliveries that failed for good since `since` (the latest 100): a report lists them as problems. */
export const failedDeliveriesOf = (queues: Queues) => async (since: number) =>
  (await queues.deliveries.getJobs(["failed"], 0, 99))
    .filter((j) => j && (j.finishedOn ?? 0) >= since)
    .map((j) => ({ sink: j.data.sink, reason: j.failedReason, at: j.finishedOn ?? 0 }));

/** What a report reads of the queues (every report: scheduled, on the page, `vcw report`, `vcw experiment status`). */
export const queueReportSources = (queues: Queues) => ({
  failedDeliveries: failedDeliveriesOf(queues),
  campaignsNotMade: campaignsNotMadeSince(queues),
});
