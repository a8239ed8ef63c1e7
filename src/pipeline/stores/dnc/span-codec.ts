/**
 * A sparse leaf of a do-not-call tree above the block level: its numbers' last 7 - level digits,
 * sorted, as 24-bit big-endian integers (3 bytes a number; 10^7 < 2^24). Pure.
 */
export const SPAN_BYTES = 3;

export function encodeSpan(sorted: readonly number[]): Buffer {
  const out = Buffer.allocUnsafe(sorted.length * SPAN_BYTES);
  for (const [i, v] of sorted.entries()) out.writeUIntBE(v, i * SPAN_BYTES, SPAN_BYTES);
  return out;
}

const at = (b: Uint8Array, i: number) => (b[i * 3]! << 16) | (b[i * 3 + 1]! << 8) | b[i * 3 + 2]!;

/** Whether a stored span holds `value`. */
export function spanHas(stored: Uint8Array, value: number): boolean {
  let lo = 0;
  let hi = stored.length / SPAN_BYTES - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = at(stored, mid);
    if (v === value) return true;
    if (v < value) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

export function decodeSpan(stored: Uint8Array): number[] {
  if (stored.length % SPAN_BYTES !== 0)
    throw new Error(`a do-not-call leaf of ${stored.length} bytes is no list of 3-byte numbers`);
  return Array.from({ length: stored.length / SPAN_BYTES }, (_, i) => at(stored, i));
}
