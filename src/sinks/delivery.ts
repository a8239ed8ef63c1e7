import type { CampaignSummary } from "../pipeline/campaign-totals.ts";
import type { ResultRecord } from "../pipeline/result-record.ts";

/** A digest report: the summaries of all of a job's campaigns at one scheduled time. */
export interface DigestReport {
  kind: "digest";
  job: string;
  /** The scheduled time of the report (its version). */
  at: string;
  campaigns: CampaignSummary[];
}

export type Payload = CampaignSummary | DigestReport;

/** One delivery to one sink. The same payload version always carries the same key. */
export interface Delivery {
  idempotencyKey: string;
  payload: Payload;
  /** The campaign's results, read when a sink needs them (the file sink). */
  records?: () => AsyncIterable<ResultRecord>;
}

export interface Sink {
  deliver(delivery: Delivery): Promise<void>;
}
