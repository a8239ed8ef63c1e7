import { z } from "zod";

/** A zod error message: "is required (X)" when the value is absent, "must be X" when it is wrong. */
export const expected = (what: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? `is required (${what})` : `must be ${what}`;

/** True for absent, non-string or whitespace-only values (refinements see unchecked input). */
export const isBlank = (v: unknown) => typeof v !== "string" || v.trim() === "";

/** A string with something other than whitespace in it. */
export const requiredText = () =>
  z.string({ error: expected("a string") }).refine((s) => s.trim().length > 0, "must not be empty");

/** One value of a fixed numeric set; published as an `enum` in the OpenAPI document. */
export function oneOfNumbers(values: readonly number[]) {
  return z.literal(values as [number, ...number[]], { error: expected(`one of ${values.join(", ")}`) });
}

export const e164Phone = () =>
  z
    .string({ error: expected("a string") })
    .regex(/^\+[1-9]\d{6,14}$/, "must be an E.164 phone number such as +14155550123");

export const emailAddress = () => z.email({ error: expected("an e-mail address such as ana@example.com") });

export const httpUrl = () =>
  z.url({ protocol: /^https?$/, error: expected("an http(s) URL such as https://example.com/hook") });

/** `YYYY-MM-DD` that names a real calendar day. */
export const calendarDate = () =>
  z.iso.date({ error: expected("a date in the format YYYY-MM-DD, such as 2026-01-31") });

const TIME_12H = /^(0[1-9]|1[0-2]):([0-5]\d) (AM|PM)$/;

/** `hh:mm AM` on a 12-hour clock, as the action object requires. */
export const clock12h = () =>
  z
    .string({ error: expected("a string") })
    .regex(TIME_12H, "must be a time in the format hh:mm AM, such as 09:30 AM");

/** Minutes since midnight of a valid `hh:mm AM` value. */
export function minutesOf12h(value: string): number {
  const m = TIME_12H.exec(value);
  if (!m) throw new RangeError(`not a 12-hour time: ${value}`);
  const hour = Number(m[1]) % 12;
  return (m[3] === "PM" ? hour + 12 : hour) * 60 + Number(m[2]);
}

/**
 * An ISO 8601 date-time with an explicit offset (`Z` or `+02:00`); the decision for the spec's
 * "not shown" format of `scheduled_at` (docs/spec-gaps.md).
 */
export const isoDateTime = () =>
  z.iso.datetime({
    offset: true,
    error: expected("an ISO 8601 date-time with a time zone, such as 2026-01-31T09:00:00Z"),
  });

// ---- tolerant readers for responses: the service may send numbers as strings, nulls, extra fields.

/**
 * What a loose field holds once read: its value as the service usually sends it, read unchanged.
 * plain-reader.ts reads a response whose fields all hold that without zod.
 */
export type LooseKind = "string" | "number" | "boolean";

const looseKinds = new WeakMap<object, LooseKind>();

/** The kind of a field made by looseText, looseFlag or looseNumber; undefined for any other schema. */
export const looseKindOf = (schema: unknown): LooseKind | undefined =>
  typeof schema === "object" && schema !== null ? looseKinds.get(schema) : undefined;

function loose<S extends z.ZodType>(kind: LooseKind, schema: S): S {
  looseKinds.set(schema, kind);
  return schema;
}

/** A string field of a response: numbers are turned into strings, null into absent. */
export const looseText = () =>
  loose(
    "string",
    z
      .union([z.string(), z.number(), z.null()])
      .optional()
      .transform((v) => (v === null || v === undefined ? undefined : String(v))),
  );

/** A boolean field of a response: also accepts "true"/"false" and 0/1. */
export const looseFlag = () =>
  loose(
    "boolean",
    z
      .union([z.boolean(), z.literal(["true", "false"]), z.literal([0, 1]), z.null()])
      .optional()
      .transform((v) => (v === null || v === undefined ? undefined : v === true || v === "true" || v === 1)),
  );

/** A numeric field of a response: also accepts a numeric string. */
export const looseNumber = () =>
  loose(
    "number",
    z
      .union([z.number(), z.string().regex(/^-?\d+(\.\d+)?$/), z.null()])
      .optional()
      .transform((v) => (v === null || v === undefined ? undefined : Number(v))),
  );

/**
 * Identifier of a returned record. The spec shows none (docs/spec-gaps.md): the simulator sends
 * `id`; other services may send `_id` or nothing. Read as `id` whichever way it came.
 */
export const recordId = {
  id: looseText(),
  _id: looseText(),
};

export function withNormalizedId<T extends { id?: string | undefined; _id?: string | undefined }>(
  record: T,
): T & { id: string | undefined } {
  return { ...record, id: record.id ?? record._id };
}
