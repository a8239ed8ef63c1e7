import { z } from "zod";
import { envName, sinkType } from "../definition-kit.ts";

/** E-mail through SMTP (email-sink.ts). */
export const emailDefinition = sinkType({
  type: "email",
  schema: z.strictObject({
    type: z.literal("email"),
    urlEnv: envName.meta({
      description:
        "Environment variable holding the SMTP URL with its credentials: smtp://user:password@host:587 or smtps://...:465 (a secret).",
    }),
    from: z.string().min(3, "must be a sender address such as vcw@example.com"),
    to: z.array(z.email({ error: "must be an e-mail address" })).min(1, "must name at least one recipient"),
    subject: z.string().min(1).default("{job}: {kind} {period}").meta({
      description: "Subject template: {job}, {period}, {kind} (report, final, ...), {campaign}.",
    }),
    timeoutMs: z.number().int().positive().default(30_000),
  }),
  variables: { urlEnv: { what: "its SMTP URL", schemes: ["smtp:", "smtps:"] } },
});
