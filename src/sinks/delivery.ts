import type { Logger } from "pino";
import type { ResultRecord } from "../pipeline/model/results.ts";
import type { Payload } from "../pipeline/reports/model.ts";
import type { SinkConfig, SinkType } from "./definitions.ts";

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

/** What a sink's factory is given: the environment its secrets are read from now, never stored. */
export interface SinkDeps {
  logger: Logger;
  env: NodeJS.ProcessEnv;
}

/** A sink type's factory (`<type>/create.ts`): a sink named `name` from its definition. */
export type SinkFactory<T extends SinkType> = (name: string, def: SinkConfig<T>, deps: SinkDeps) => Sink;
