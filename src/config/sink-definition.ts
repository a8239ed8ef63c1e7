import { z } from "zod";
import type { SinkVariableSpec } from "../sinks/definition-kit.ts";
import { SINK_DEFINITIONS } from "../sinks/definitions.ts";

type Schemas<T extends readonly { schema: unknown }[]> = { -readonly [K in keyof T]: T[K]["schema"] };
const members = SINK_DEFINITIONS.map((d) => d.schema) as unknown as Schemas<typeof SINK_DEFINITIONS>;
const types = SINK_DEFINITIONS.map((d) => d.type);

/**
 * One sink of jobs/sinks.yaml: a member per sink type, each from its folder (`sinks/<type>/definition.ts`,
 * listed in sinks/definitions.ts). Secrets are never written here: they are named by environment variable.
 */
export const SinkDefinition = z.discriminatedUnion("type", members, {
  error: `must have type ${types.slice(0, -1).join(", ")} or ${types.at(-1)}`,
});

export type SinkDefinition = z.output<typeof SinkDefinition>;

export const SinksFile = z
  .strictObject({
    sinks: z.record(
      z.string().regex(/^[a-z0-9][a-z0-9-]*$/, "sink names are lower-case letters, digits and dashes"),
      SinkDefinition,
    ),
  })
  .meta({ id: "SinksFile", title: "vcw sinks" });

/** A variable a sink reads at delivery: its field, the variable it names, what it holds, its URL schemes. */
export interface SinkVariable extends SinkVariableSpec {
  field: string;
  variable: string;
}

/** What each sink type reads from the environment, field by field (a test checks every `*Env` field is here). */
export const SINK_VARIABLE_FIELDS: Readonly<Record<string, Readonly<Record<string, SinkVariableSpec>>>> =
  Object.fromEntries(SINK_DEFINITIONS.flatMap((d) => ("variables" in d ? [[d.type, d.variables]] : [])));

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
