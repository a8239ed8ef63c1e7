import { describe, expect, it } from "vitest";
import {
  BITMAP_BYTES,
  blockHas,
  countBits,
  emptyBits,
  encodeBlock,
  mergeInto,
  setBit,
} from "../../../../src/pipeline/stores/dnc/block-codec.ts";
import { blockName, phoneAt, placeOf } from "../../../../src/pipeline/stores/dnc/number-block.ts";
import { createRandom as random } from "../../../../src/simulator/prng.ts";

const bitsOf = (suffixes: Iterable<number>) => {
  const bits = emptyBits();
  for (const s of suffixes) setBit(bits, s);
  return bits;
};

describe("number places", () => {
  it("splits a NANP number into area code (tag), exchange (block) and line (suffix)", () => {
    expect(placeOf("+12125550123")).toEqual({ tag: "1212", block: "555", suffix: 123 });
    expect(placeOf("+447911123456")).toEqual({ tag: "44791", block: "112", suffix: 3456 });
    expect(placeOf("+2901234")).toEqual({ tag: "2", block: "90", suffix: 1234 });
  });

  it("refuses what is not E.164, and inverts", () => {
    for (const bad of ["2125550123", "+0125550123", "+1", "+1212555012a", ""])
      expect(placeOf(bad)).toBeUndefined();
    for (const phone of ["+12125550123", "+447911123456", "+33612345678", "+2901234"]) {
      const p = placeOf(phone)!;
      expect(phoneAt(blockName(p), p.suffix)).toBe(phone);
    }
  });
});

describe("blocks", () => {
  it.each([1, 10, 624, 625, 5_000, 10_000])("hold exactly their %i numbers, encoded by density", (n) => {
    const next = random(n);
    const chosen = new Set<number>();
    while (chosen.size < n) chosen.add(Math.floor(next() * 10_000));
    const stored = encodeBlock(bitsOf(chosen))!;
    expect(stored.length).toBe(n < 625 ? n * 2 : BITMAP_BYTES);
    for (let s = 0; s < 10_000; s += 1) expect(blockHas(stored, s)).toBe(chosen.has(s));
  });

  it("keeps Redis' bit order (GETBIT offset = suffix)", () => {
    const stored = encodeBlock(bitsOf(Array.from({ length: 700 }, (_, i) => i * 13)))!;
    expect(stored.length).toBe(BITMAP_BYTES);
    expect(stored[0]).toBe(0b1000_0000); // 0 only in the first byte (13 is in the second)
    expect(stored[1]).toBe(0b0000_0100); // 13 = byte 1, bit 5 from the left
  });

  it("merge a stored block (list or bitmap) into memory, and count", () => {
    for (const sizes of [
      [10, 20],
      [700, 30],
      [30, 700],
      [800, 900],
    ]) {
      const next = random(sizes[0]! * sizes[1]!);
      const a = new Set(Array.from({ length: sizes[0]! }, () => Math.floor(next() * 10_000)));
      const b = new Set(Array.from({ length: sizes[1]! }, () => Math.floor(next() * 10_000)));
      const bits = bitsOf(b);
      mergeInto(bits, encodeBlock(bitsOf(a))!);
      const union = new Set([...a, ...b]);
      expect(countBits(bits)).toBe(union.size);
      const stored = encodeBlock(bits)!;
      for (let s = 0; s < 10_000; s += 1) expect(blockHas(stored, s)).toBe(union.has(s));
    }
    expect(encodeBlock(emptyBits())).toBeUndefined();
    expect(() => mergeInto(emptyBits(), Buffer.alloc(3))).toThrow(/neither a bitmap nor a list/);
  });
});
