import type { Payload, ResultRecord } from "../pipeline/results/model.ts";

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
