import type { z } from "zod";
import { emailDefinition } from "./email/definition.ts";
import { fileDefinition } from "./file/definition.ts";
import { logDefinition } from "./log/definition.ts";
import { slackDefinition } from "./slack/definition.ts";
import { webhookDefinition } from "./webhook/definition.ts";

/**
 * Every sink type's definition (a folder each: `<type>/definition.ts`), in the order jobs/sinks.yaml's
 * schema and its messages name them. config/sink-definition.ts builds the union from this list;
 * registry.ts gives each type its factory (the compiler names a type without one).
 */
export const SINK_DEFINITIONS = [
  webhookDefinition,
  slackDefinition,
  fileDefinition,
  logDefinition,
  emailDefinition,
] as const;

type Definitions = (typeof SINK_DEFINITIONS)[number];

/** A sink type's name: `webhook`, `slack`, ... */
export type SinkType = Definitions["type"];

/** One sink of jobs/sinks.yaml, of type `T`, as parsed. */
export type SinkConfig<T extends SinkType = SinkType> = z.output<Extract<Definitions, { type: T }>["schema"]>;
