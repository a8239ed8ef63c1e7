import type { z } from "zod";
import { type LooseKind, looseKindOf, withNormalizedId } from "./schemas/common.ts";

/** The value is not plain: the schema reads it (and names what doesn't fit). */
export const NOT_PLAIN = Symbol("not plain");

/** Reads a parsed JSON body as its schema would, or answers NOT_PLAIN. */
export type PlainReader = (json: unknown) => unknown;

const compiled = new WeakMap<object, PlainReader | null>();

/**
 * The reader of `schema`'s plain values, derived from the schema once and kept: arrays of loose
 * records whose every known field is made by looseText, looseFlag or looseNumber, read through
 * `withNormalizedId` or not at all. A value is plain when each of those fields is absent or already
 * of its kind (a string, a boolean, a finite number): then the schema's reading changes nothing but
 * the record's `id` and key order, which the reader repeats. Anything else is NOT_PLAIN. undefined
 * for a schema of another shape: zod reads all its values.
 *
 * Why: zod spends 5 to 25 µs on a list of a dozen records, most of it in each field's union and
 * transform; a plain list is checked in well under a microsecond (docs/decisions/0079).
 */
export function plainReaderOf(schema: z.ZodType): PlainReader | undefined {
  let reader = compiled.get(schema);
  if (reader === undefined) {
    reader = compile(schema) ?? null;
    compiled.set(schema, reader);
  }
  return reader ?? undefined;
}

interface Def {
  type: string;
  checks?: unknown[];
  element?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  transform?: unknown;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
}

const defOf = (schema: z.ZodType) => schema._zod.def as unknown as Def;

function compile(schema: z.ZodType): PlainReader | undefined {
  const def = defOf(schema);
  if (def.checks?.length) return undefined;
  if (def.type === "array" && def.element) return arrayReader(def.element);
  if (def.type === "pipe" && def.in && def.out) {
    const out = defOf(def.out);
    if (out.type !== "transform" || out.transform !== withNormalizedId || out.checks?.length)
      return undefined;
    const record = recordReader(def.in);
    return record && ((json) => normalized(record(json)));
  }
  return recordReader(schema);
}

function arrayReader(element: z.ZodType): PlainReader | undefined {
  const item = compile(element);
  if (!item) return undefined;
  return (json) => {
    if (!Array.isArray(json)) return NOT_PLAIN;
    const out = new Array<unknown>(json.length);
    for (let i = 0; i < json.length; i++) {
      const value = item(json[i]);
      if (value === NOT_PLAIN) return NOT_PLAIN;
      out[i] = value;
    }
    return out;
  };
}

function normalized(record: unknown): unknown {
  return record === NOT_PLAIN ? NOT_PLAIN : withNormalizedId(record as { id?: string; _id?: string });
}

/** A loose object (unknown keys kept) whose known fields are all loose ones. */
function recordReader(schema: z.ZodType): PlainReader | undefined {
  const def = defOf(schema);
  if (def.type !== "object" || !def.shape || def.checks?.length) return undefined;
  if (!def.catchall || defOf(def.catchall).type !== "unknown") return undefined;
  const fields: [string, LooseKind][] = [];
  for (const [name, field] of Object.entries(def.shape)) {
    const kind = looseKindOf(field);
    if (!kind) return undefined;
    fields.push([name, kind]);
  }
  const known = new Set(fields.map(([name]) => name));
  return (json) => {
    if (typeof json !== "object" || json === null || Array.isArray(json)) return NOT_PLAIN;
    const raw = json as Record<string, unknown>;
    // As zod writes its output: the known fields in the schema's order, then the others.
    const out: Record<string, unknown> = {};
    for (const [name, kind] of fields) {
      const value = raw[name];
      if (value === undefined) continue;
      if (typeof value !== kind || (kind === "number" && !Number.isFinite(value))) return NOT_PLAIN;
      out[name] = value;
    }
    for (const key in raw) {
      if (known.has(key)) continue;
      // Assigned, this key would set the record's prototype: the schema reads such a record.
      if (key === "__proto__") return NOT_PLAIN;
      out[key] = raw[key];
    }
    return out;
  };
}
