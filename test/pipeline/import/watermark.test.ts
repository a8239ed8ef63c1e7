import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Watermark } from "../../../src/pipeline/import/watermark.ts";

describe("Watermark", () => {
  it("stops at the lowest row still open", () => {
    const w = new Watermark();
    w.read(0, false);
    w.read(1, true);
    w.read(2, false);
    expect(w.value).toBe(0);
    w.settle(2);
    expect(w.value).toBe(0);
    w.settle(0);
    expect(w.value).toBe(3);
  });

  it("starts at a resumed cursor", () => {
    const w = new Watermark(40);
    expect(w.value).toBe(40);
    w.read(40, false);
    expect(w.value).toBe(40);
    w.settle(40);
    expect(w.value).toBe(41);
  });

  it("never passes a row that is not settled, whatever the order", () => {
    fc.assert(
      fc.property(
        fc.array(fc.boolean(), { maxLength: 60 }),
        fc.array(fc.nat(), { maxLength: 60 }),
        (valid, order) => {
          const w = new Watermark();
          const open = new Set<number>();
          valid.forEach((v, i) => {
            w.read(i, !v);
            if (v) open.add(i);
          });
          for (const pick of order) {
            if (open.size === 0) break;
            const index = [...open][pick % open.size]!;
            open.delete(index);
            w.settle(index);
            const lowest = Math.min(valid.length, ...open);
            expect(w.value).toBe(lowest);
          }
        },
      ),
    );
  });
});
