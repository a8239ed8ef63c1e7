import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SharedStrings } from "../../src/ingest/shared-strings.ts";

describe("SharedStrings", () => {
  it("gives back every string added, across blocks, in any script, long ones too", () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string({ unit: "grapheme" }), fc.constantFrom("", "Zoë", "x".repeat(70_000))), {
          maxLength: 300,
        }),
        (texts) => {
          const strings = new SharedStrings();
          for (const t of texts) strings.add(t);
          expect(strings.size).toBe(texts.length);
          expect(texts.map((_, i) => strings.get(i))).toEqual(texts);
          expect(strings.get(texts.length)).toBe("");
          expect(strings.get(-1)).toBe("");
        },
      ),
      { numRuns: 30 },
    );
  });

  it("a million strings, over many blocks", () => {
    const strings = new SharedStrings();
    for (let i = 0; i < 1_000_000; i++) strings.add(`lead${i}@example.com`);
    expect(strings.get(0)).toBe("lead0@example.com");
    expect(strings.get(654_321)).toBe("lead654321@example.com");
    expect(strings.get(999_999)).toBe("lead999999@example.com");
  });
});
