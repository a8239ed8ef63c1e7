import type { Logger } from "pino";
import type { SinkDefinition } from "../config/sink-definition.ts";
import type { SinkType } from "../sinks/definitions.ts";
import type { Sink, SinkFactory } from "../sinks/delivery.ts";
import { SINK_FACTORIES } from "../sinks/registry.ts";

/** A sink from its definition, by its type's factory; secrets are read from the environment now, never stored. */
export function createSink(
  name: string,
  def: SinkDefinition,
  deps: { logger: Logger; env?: NodeJS.ProcessEnv },
): Sink {
  const create = SINK_FACTORIES[def.type] as SinkFactory<SinkType>;
  return create(name, def, { logger: deps.logger, env: deps.env ?? process.env });
}
