import { z } from "zod";
import { sinkType } from "../definition-kit.ts";

/** One structured log line (log-sink.ts); every job has it as `log`. */
export const logDefinition = sinkType({
  type: "log",
  schema: z.strictObject({ type: z.literal("log") }),
});
