import { z } from "zod";
import { envName, sinkType } from "../definition-kit.ts";

/** A JSON POST, signed when given a secret (webhook-sink.ts). */
export const webhookDefinition = sinkType({
  type: "webhook",
  schema: z.strictObject({
    type: z.literal("webhook"),
    url: z.url({ error: "must be an http(s) URL" }),
    secretEnv: envName.optional().meta({
      description:
        "Environment variable holding the signing secret: whsec_<base64> (Standard Webhooks) or any text; two separated by a space while rotating, the new one first.",
    }),
    timeoutMs: z.number().int().positive().default(10_000),
  }),
  variables: { secretEnv: { what: "its signing secret" } },
});
