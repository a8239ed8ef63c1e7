import { z } from "zod";

/**
 * What a sink type's folder gives the job files (`<type>/definition.ts`): config/ reads these, so
 * they import only zod, lib/ and this file (test/architecture.test.ts), never a sink's code.
 */

/** A field naming an environment variable (secrets are never written in jobs/sinks.yaml). */
export const envName = z
  .string()
  .regex(/^[A-Z_][A-Z0-9_]*$/, "must be an environment variable name such as VCW_WEBHOOK_SECRET");

/** A variable a sink reads at delivery: what it holds, and the URL schemes it may have (if a URL). */
export interface SinkVariableSpec {
  what: string;
  schemes?: readonly string[];
}

/** A sink type: its `type`, its member of jobs/sinks.yaml's union, and the `*Env` fields it reads. */
export interface SinkTypeDefinition {
  type: string;
  /** A strict object whose `type` is the literal `type`. */
  schema: z.ZodObject;
  /** Field -> the variable it names (a test checks every `*Env` field is here). */
  variables?: Readonly<Record<string, SinkVariableSpec>>;
}

/** A sink type's definition, its literal types kept. */
export const sinkType = <const D extends SinkTypeDefinition>(d: D): D => d;
