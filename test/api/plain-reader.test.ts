import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type OperationName, operations } from "../../src/api/operations.ts";
import { NOT_PLAIN, plainReaderOf } from "../../src/api/plain-reader.ts";
import { type LooseKind, looseKindOf } from "../../src/api/schemas/common.ts";
import { Segment } from "../../src/api/schemas/index.ts";

type Shape = Record<string, unknown>;

/** The operations whose responses the derived reader covers: the lists and records of loose fields. */
const covered = (Object.keys(operations) as OperationName[]).filter((name) => {
  const schema = operations[name].response;
  return schema !== undefined && plainReaderOf(schema) !== undefined;
});

interface DefLike {
  type: string;
  element?: { _zod: { def: DefLike } };
  in?: { _zod: { def: DefLike } };
  shape?: Shape;
}

/** The known fields of a response's records (through an array and a transform), with their kinds. */
function fieldsOf(schema: { _zod: { def: unknown } }): [string, LooseKind][] {
  let def = schema._zod.def as DefLike;
  if (def.type === "array" && def.element) def = def.element._zod.def;
  if (def.type === "pipe" && def.in) def = def.in._zod.def;
  return Object.entries(def.shape ?? {}).map(([name, field]) => [name, looseKindOf(field)!]);
}

const plainOf: Record<LooseKind, fc.Arbitrary<unknown>> = {
  string: fc.string(),
  boolean: fc.boolean(),
  number: fc.double({ noNaN: true, noDefaultInfinity: true }),
};

/** What only the schema reads: nulls, numbers as strings, flags as 0 and 1, arrays, objects. */
const odd = fc.oneof(
  fc.constant(null),
  fc.constantFrom("true", "false", 0, 1, "12", "1.5", true, 3),
  fc.array(fc.string(), { maxLength: 2 }),
  fc.dictionary(fc.string({ maxLength: 3 }), fc.string(), { maxKeys: 2 }),
);

/** A value of a field: of its kind most often. */
const fieldValue = (kind: LooseKind) =>
  fc.oneof({ weight: 12, arbitrary: plainOf[kind] }, { weight: 1, arbitrary: odd });

/** A record as the service might send it, as JSON text: some known fields, some of its own, in any order. */
const recordOf = (fields: [string, LooseKind][]) =>
  fc
    .tuple(
      fc.tuple(
        ...fields.map(([name, kind]) =>
          fc.option(fieldValue(kind), { nil: undefined, freq: 3 }).map((v) => [name, v] as const),
        ),
      ),
      fc.dictionary(
        fc.constantFrom("extra", "updated_at", "__proto__", "owner"),
        fc.oneof(fc.string(), odd),
        { maxKeys: 3 },
      ),
      fc.boolean(),
    )
    .map(([values, extra, extraFirst]) => {
      const known = Object.fromEntries(values.filter(([, v]) => v !== undefined));
      // Through JSON as the transport reads it, so that `__proto__` is a key of the record's own.
      const extraText = Object.entries(extra).map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`);
      const knownText = JSON.stringify(known).slice(1, -1);
      const parts = (extraFirst ? [...extraText, knownText] : [knownText, ...extraText]).filter(
        (p) => p !== "",
      );
      return `{${parts.join(",")}}`;
    });

describe("the reader derived from a response schema", () => {
  it("covers the lists and records made of loose fields only", () => {
    // The others hold nested records, a union or a transform of their own: zod reads them.
    expect(covered).toEqual([
      "segments.create",
      "segments.update",
      "segments.list",
      "contacts.list",
      "campaigns.create",
      "campaigns.list",
      "campaigns.audiences",
    ]);
  });

  for (const name of covered) {
    it(`reads ${name}'s responses as its schema does, or leaves them to it`, () => {
      const schema = operations[name].response!;
      const reader = plainReaderOf(schema)!;
      const record = recordOf(fieldsOf(schema));
      const isList = (schema._zod.def as { type: string }).type === "array";
      const body = isList ? fc.array(record, { maxLength: 4 }).map((r) => `[${r.join(",")}]`) : record;
      let plain = 0;
      fc.assert(
        fc.property(body, (text) => {
          const byReader = reader(JSON.parse(text));
          const bySchema = schema.safeParse(JSON.parse(text));
          if (byReader === NOT_PLAIN) return;
          plain += 1;
          expect(bySchema.success).toBe(true);
          // Equal values, and the keys in the same order (a report that prints a record shows it).
          expect(byReader).toStrictEqual(bySchema.data);
          expect(JSON.stringify(byReader)).toBe(JSON.stringify(bySchema.data));
        }),
        { numRuns: 1_000 },
      );
      expect(plain).toBeGreaterThan(100);
    });
  }

  it("reads a record whose fields are all of their kind, and leaves any other to the schema", () => {
    const reader = plainReaderOf(operations["segments.list"].response!)!;
    const list = [{ _id: "s1", name: "Leads", description: "", extra: 1 }];
    expect(reader(list)).toStrictEqual([{ _id: "s1", name: "Leads", description: "", extra: 1, id: "s1" }]);
    for (const odd of [{ name: 7 }, { name: null }, { description: {} }, { id: ["x"] }]) {
      expect(reader([{ _id: "s1", ...odd }])).toBe(NOT_PLAIN);
    }
    expect(reader({})).toBe(NOT_PLAIN);
    expect(reader([5])).toBe(NOT_PLAIN);
  });

  it("is compiled once a schema, and not for a schema of another shape", () => {
    expect(plainReaderOf(Segment)).toBe(plainReaderOf(Segment));
    // A dialer's reading drops its secret fields: a transform of its own, left to zod.
    expect(plainReaderOf(operations["dialers.create"].response!)).toBeUndefined();
  });
});
