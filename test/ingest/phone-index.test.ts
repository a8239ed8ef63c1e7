import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PhoneIndex } from "../../src/ingest/phone-index.ts";

describe("PhoneIndex", () => {
  it("answers like a Map for any sequence of E.164 numbers", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1_000_000, max: 999_999_999_999_999 }), { maxLength: 5000 }),
        (phones) => {
          const index = new PhoneIndex();
          const map = new Map<number, number>();
          phones.forEach((phone, i) => {
            expect(index.get(phone)).toBe(map.get(phone) ?? 0);
            if (!map.has(phone)) map.set(phone, i + 1);
            index.add(phone, i + 1);
          });
          expect(index.size).toBe(map.size);
          for (const [phone, line] of map) expect(index.get(phone)).toBe(line);
        },
      ),
      { numRuns: 50 },
    );
  });
});
