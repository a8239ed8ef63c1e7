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

/** A variable a sink reads at delivery: what it holds, and the URL schemes it may have (if a URL). */
export interface SinkVariable {
  field: string;
  variable: string;
  what: string;
  schemes?: readonly string[];
}

/** What each sink type reads from the environment, field by field (a test checks every `*Env` field is here). */
export const SINK_VARIABLE_FIELDS: Readonly<
  Record<string, Readonly<Record<string, Omit<SinkVariable, "field" | "variable">>>>
> = {
  webhook: { secretEnv: { what: "its signing secret" } },
  slack: { urlEnv: { what: "its webhook URL", schemes: ["https:", "http:"] } },
  email: { urlEnv: { what: "its SMTP URL", schemes: ["smtp:", "smtps:"] } },
};

/** The variables sink `def` will read, those it names. */
export function sinkVariables(def: SinkDefinition): SinkVariable[] {
  const fields = SINK_VARIABLE_FIELDS[def.type] ?? {};
  return Object.entries(fields).flatMap(([field, spec]) => {
    const variable = (def as Record<string, unknown>)[field];
    return typeof variable === "string" ? [{ field, variable, ...spec }] : [];
  });
}

/**
 * Why `value` can't serve as `v`, or undefined when it can. Never quotes the value: it is a secret
 * (an SMTP URL holds its password).
 */
export function sinkVariableProblem(v: SinkVariable, value: string | undefined): string | undefined {
  if (!value?.trim()) return "is not set";
  if (!v.schemes) return undefined;
  const scheme = /^([a-z][a-z0-9+.-]*:)\/\//i.exec(value.trim())?.[1]?.toLowerCase();
  let parses = true;
  try {
    new URL(value.trim());
  } catch {
    parses = false;
  }
  if (scheme && v.schemes.includes(scheme) && parses) return undefined;
  return `does not hold a ${v.schemes.map((s) => `${s}//`).join(" or ")} URL`;
}

/** The sink every job has without configuring it. */
export const BUILTIN_SINKS: Record<string, SinkDefinition> = { log: { type: "log" } };

/** The JSON Schema published as jobs/sinks.schema.json, for editors. */
export function sinksJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(SinksFile, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
}
