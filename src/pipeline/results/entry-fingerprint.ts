import type { AudienceEntry } from "../../api/schemas/campaign.ts";

/**
 * A 64-bit fingerprint as two 32-bit lanes, written into `out` (no allocation per entry). Computed
 * from the fields of an audience entry that make its record (`toRecord`), straight from the
 * entry: no record is built and no JSON written for an entry that turns out unchanged.
 *
 * Two lanes of murmur3's block step with different constants, each finished with murmur3's mix.
 * (FNV-style lanes, before, let two flips of a word's top bit cancel: "x一x一" and "x츀x츀" made
 * one fingerprint.) Not cryptographic: it only tells a changed entry from an unchanged one.
 */
export function entryFingerprint(e: AudienceEntry, out: Uint32Array): void {
  lanes[0] = 0x811c9dc5;
  lanes[1] = 0x9747b28c;
  text(e.phone);
  text(e.first_name);
  text(e.last_name);
  text(e.status);
  text(e.call_duration_in_sec);
  text(e.call_sentiment);
  text(e.error);
  text(e.recording_url);
  text(e.calltranscribe);
  word(flag(e.is_call_transferred) | (flag(e.is_meeting_scheduled) << 2) | (flag(e.is_message_sent) << 4));
  out[0] = fmix(lanes[0]!);
  out[1] = fmix(lanes[1]! ^ 0x5bd1e995);
}

const lanes = new Int32Array(2);

/** 0 absent, 1 false, 2 true: absent and false make the same record, but cost nothing to tell apart. */
const flag = (v: boolean | undefined) => (v === undefined ? 0 : v ? 2 : 1);

function word(w: number): void {
  lanes[0] = laneA(lanes[0]!, w);
  lanes[1] = laneB(lanes[1]!, w);
}

/** The length first (absent is -1), so that no two lists of fields run together alike. */
function text(s: string | undefined): void {
  if (s === undefined) {
    word(-1);
    return;
  }
  word(s.length);
  let a = lanes[0]!;
  let b = lanes[1]!;
  const n = s.length;
  let i = 0;
  // Two UTF-16 units a step.
  for (; i + 1 < n; i += 2) {
    const c = s.charCodeAt(i) | (s.charCodeAt(i + 1) << 16);
    a = laneA(a, c);
    b = laneB(b, c);
  }
  if (i < n) {
    const c = s.charCodeAt(i);
    a = laneA(a, c);
    b = laneB(b, c);
  }
  lanes[0] = a;
  lanes[1] = b;
}

/** murmur3's block step: the word multiplied, rotated, multiplied, then into the lane, rotated, stepped. */
export function laneA(h: number, k: number): number {
  k = Math.imul(k, 0xcc9e2d51);
  k = Math.imul((k << 15) | (k >>> 17), 0x1b873593);
  h ^= k;
  h = (h << 13) | (h >>> 19);
  return (Math.imul(h, 5) + 0xe6546b64) | 0;
}

/** The same step with other constants (xxhash's primes): a second lane that fails apart from the first. */
export function laneB(h: number, k: number): number {
  k = Math.imul(k, 0x85ebca77);
  k = Math.imul((k << 13) | (k >>> 19), 0xc2b2ae3d);
  h ^= k;
  h = (h << 17) | (h >>> 15);
  return (Math.imul(h, 5) + 0x27d4eb2f) | 0;
}

/** murmur3's finalizer: every input bit moves about half the output bits. */
export function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A fingerprint as Redis keeps it: 13 or 14 base-36 digits. */
export const formatFingerprint = (a: number, b: number) => a.toString(36) + b.toString(36).padStart(7, "0");

/** The lanes of a stored fingerprint into `out`; false when it is not one of ours (an older format). */
export function parseFingerprint(text: string, out: Uint32Array): boolean {
  if (text.length < 8 || text.length > 14) return false;
  const a = Number.parseInt(text.slice(0, -7), 36);
  const b = Number.parseInt(text.slice(-7), 36);
  if (!(a >= 0 && a <= 0xffffffff && b >= 0 && b <= 0xffffffff)) return false;
  out[0] = a;
  out[1] = b;
  return true;
}
