import { z } from "zod";
import { sinkType } from "../definition-kit.ts";

/** A folder of results CSVs, event logs and report pages (file-sink.ts). */
export const fileDefinition = sinkType({
  type: "file",
  schema: z.strictObject({
    type: z.literal("file"),
    dir: z
      .string()
      .min(1)
      .meta({ description: "Folder for <campaign>.results.csv and <campaign>.events.jsonl." }),
  }),
});
