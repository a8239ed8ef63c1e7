import { z } from "zod";
import { envName, sinkType } from "../definition-kit.ts";

/** A Slack incoming webhook (slack-sink.ts). */
export const slackDefinition = sinkType({
  type: "slack",
  schema: z.strictObject({
    type: z.literal("slack"),
    urlEnv: envName.meta({
      description: "Environment variable holding the incoming-webhook URL (a secret).",
    }),
    timeoutMs: z.number().int().positive().default(10_000),
  }),
  variables: { urlEnv: { what: "its webhook URL", schemes: ["https:", "http:"] } },
});
