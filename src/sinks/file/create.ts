import type { SinkFactory } from "../delivery.ts";
import { fileSink } from "./file-sink.ts";

export const createFileSink: SinkFactory<"file"> = (_name, def) => fileSink({ dir: def.dir });
