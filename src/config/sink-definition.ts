import { z } from "zod";

const envName = z
  .string()
  .regex(/^[A-Z_][A-Z0-9_]*$/, "must be an environment variable name such as VCW_WEBHOOK_SECRET");

/** One sink of jobs/sinks.yaml. Secrets are never written here: they are named by environment variable. */
export const SinkDefinition = z.discriminatedUnion(
  "type",
  [
    z.strictObject({
      type: z.literal("webhook"),
      url: z.url({ error: "must be an http(s) URL" }),
      secretEnv: envName.optional().meta({
        description:
          "Environment variable holding the signing secret: whsec_<base64> (Standard Webhooks) or any text; two separated by a space while rotating, the new one first.",
      }),
      timeoutMs: z.number().int().positive().default(10_000),
    }),
    z.strictObject({
      type: z.literal("slack"),
      urlEnv: envName.meta({
        description: "Environment variable holding the incoming-webhook URL (a secret).",
      }),
      timeoutMs: z.number().int().positive().default(10_000),
    }),
    z.strictObject({
      type: z.literal("file"),
      dir: z
        .string()
        .min(1)
        .meta({ description: "Folder for <campaign>.results.csv and <campaign>.events.jsonl." }),
    }),
    z.strictObject({ type: z.literal("log") }),
    z.strictObject({
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
  ],
  { error: "must have type webhook, slack, file, log or email" },
);

export type SinkDefinition = z.output<typeof SinkDefinition>;

export const SinksFile = z
  .strictObject({
    sinks: z.record(
      z.string().regex(/^[a-z0-9][a-z0-9-]*$/, "sink names are lower-case letters, digits and dashes"),
      SinkDefinition,
    ),
  })
  .meta({ id: "SinksFile", title: "vcw sinks" });

/** The sink every job has without configuring it. */
export const BUILTIN_SINKS: Record<string, SinkDefinition> = { log: { type: "log" } };

/** The JSON Schema published as jobs/sinks.schema.json, for editors. */
export function sinksJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(SinksFile, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
}
