import { BLOCK_SIZE } from "./number-block.ts";

/**
 * The stored form of one block of 10,000 numbers, chosen by density: a bitmap (1,250 bytes, bit
 * `suffix` set, most significant bit first as Redis' GETBIT counts) when it holds 625 numbers or
 * more, else the sorted suffixes as 16-bit big-endian integers (2 bytes a number). The length tells
 * them apart: a list is at most 1,248 bytes. Pure.
 */
export const BITMAP_BYTES = BLOCK_SIZE / 8;

/** Fewer numbers than this are kept as a list. */
const LIST_BELOW = BITMAP_BYTES / 2;

/** An empty in-memory block: a bitmap. */
export const emptyBits = () => new Uint8Array(BITMAP_BYTES);

export function setBit(bits: Uint8Array, suffix: number): void {
  bits[suffix >> 3]! |= 0x80 >> (suffix & 7);
}

const hasBit = (bits: Uint8Array, suffix: number) => (bits[suffix >> 3]! & (0x80 >> (suffix & 7))) !== 0;

/** Numbers in a bitmap. */
export function countBits(bits: Uint8Array): number {
  let n = 0;
  for (let byte of bits) {
    while (byte) {
      byte &= byte - 1;
      n += 1;
    }
  }
  return n;
}

/** The stored form of a bitmap holding `count` numbers (undefined: empty, nothing to store). */
export function encodeBlock(bits: Uint8Array, count = countBits(bits)): Buffer | undefined {
  if (count === 0) return undefined;
  if (count >= LIST_BELOW) return Buffer.from(bits.buffer, bits.byteOffset, bits.byteLength);
  const out = Buffer.allocUnsafe(count * 2);
  let at = 0;
  for (let byte = 0; byte < BITMAP_BYTES; byte += 1) {
    if (bits[byte] === 0) continue;
    for (let bit = 0; bit < 8; bit += 1) {
      if (bits[byte]! & (0x80 >> bit)) {
        out.writeUInt16BE(byte * 8 + bit, at);
        at += 2;
      }
    }
  }
  return out;
}

/** Whether a stored block holds `suffix`. */
export function blockHas(stored: Uint8Array, suffix: number): boolean {
  if (stored.length === BITMAP_BYTES) return hasBit(stored, suffix);
  let lo = 0;
  let hi = stored.length / 2 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const at = (stored[mid * 2]! << 8) | stored[mid * 2 + 1]!;
    if (at === suffix) return true;
    if (at < suffix) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/** Adds a stored block's numbers to an in-memory bitmap (a block loaded in several passes). */
export function mergeInto(bits: Uint8Array, stored: Uint8Array): void {
  if (stored.length === BITMAP_BYTES) {
    for (let i = 0; i < BITMAP_BYTES; i += 1) bits[i]! |= stored[i]!;
    return;
  }
  if (stored.length % 2 !== 0 || stored.length > BITMAP_BYTES)
    throw new Error(`a do-not-call block of ${stored.length} bytes is neither a bitmap nor a list`);
  for (let at = 0; at < stored.length; at += 2) setBit(bits, (stored[at]! << 8) | stored[at + 1]!);
}
