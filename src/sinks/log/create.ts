import type { SinkFactory } from "../delivery.ts";
import { logSink } from "./log-sink.ts";

export const createLogSink: SinkFactory<"log"> = (_name, _def, { logger }) => logSink(logger);
