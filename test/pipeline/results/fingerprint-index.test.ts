import { describe, expect, it } from "vitest";
import {
  FingerprintIndex,
  KNOWN,
  SEEN_MASK,
  STORED,
} from "../../../src/pipeline/results/fingerprint-index.ts";

describe("FingerprintIndex", () => {
  it("keeps each phone's stored fingerprint through growth; E.164 and other phones alike, never confused", () => {
    const index = new FingerprintIndex(10);
    const phones = [
      ...Array.from({ length: 5_000 }, (_, i) => `+1415${String(2_000_000 + i * 7).padStart(7, "0")}`),
      "+14155550101 ext 2",
      "14155550101", // not E.164: not the same phone as +14155550101
      "+0123",
      "+1234567890123456", // 16 digits: not E.164
    ];
    phones.push("+14155550101");
    for (const [n, phone] of phones.entries()) index.setStored(index.slot(index.keyOf(phone), 0), n, n * 3);
    expect(index.size).toBe(phones.length);
    for (const [n, phone] of phones.entries()) {
      const i = index.slot(index.keyOf(phone), 0);
      expect(index.storedIs(i, n, n * 3), phone).toBe(true);
      expect(index.stateAt(i) & (KNOWN | STORED)).toBe(KNOWN | STORED);
    }
    expect(index.size).toBe(phones.length);
    expect(index.bytes).toBeLessThan(phones.length * 18 * 2);
  });

  it("firstSight is a set of phones; resetPoll forgets what a poll saw, not what is stored", () => {
    const index = new FingerprintIndex();
    expect(index.firstSight("+14155550101")).toBe(true);
    expect(index.firstSight("+14155550101")).toBe(false);
    expect(index.firstSight("odd phone")).toBe(true);
    expect(index.firstSight("odd phone")).toBe(false);
    const i = index.slot(index.keyOf("+14155550101"), 0);
    index.setStored(i, 5, 6);
    index.resetPoll();
    expect(index.stateAt(i) & SEEN_MASK).toBe(0);
    expect(index.storedIs(i, 5, 6)).toBe(true);
    expect(index.firstSight("+14155550101")).toBe(true);
  });
});
