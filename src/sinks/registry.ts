import type { SinkType } from "./definitions.ts";
import type { SinkFactory } from "./delivery.ts";
import { createEmailSink } from "./email/create.ts";
import { createFileSink } from "./file/create.ts";
import { createLogSink } from "./log/create.ts";
import { createSlackSink } from "./slack/create.ts";
import { createWebhookSink } from "./webhook/create.ts";

/**
 * Each sink type's factory (its folder's `create.ts`). Its definition is in definitions.ts, which
 * config/ reads without loading any sink's code; a type missing here fails to compile.
 */
export const SINK_FACTORIES: { readonly [T in SinkType]: SinkFactory<T> } = {
  webhook: createWebhookSink,
  slack: createSlackSink,
  file: createFileSink,
  log: createLogSink,
  email: createEmailSink,
};
