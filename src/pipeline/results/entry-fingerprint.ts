import type { AudienceEntry } from "../../api/schemas/campaign.ts";

/**
 * A 64-bit fingerprint as two 32-bit lanes, written into `out` (no allocation per entry). Computed
 * from the fields of an audience entry that make its record (`toRecord`), straight from the
 * entry: no record is built and no JSON written for an entry that turns out unchanged.
 *
 * Two FNV-style lanes with different multipliers, each finished with murmur3's mix. Not
 * cryptographic: it only tells a changed entry from an unchanged one. Measured on 100,000 entries:
 * about 0.8 µs an entry, where JSON.stringify of the record and a hash of that took about 5 µs.
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
  lanes[0] = Math.imul(lanes[0]! ^ w, 0x01000193);
  lanes[1] = Math.imul(lanes[1]! ^ w, 0x5bd1e995);
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
  // Two UTF-16 units a step: half the multiplications.
  for (; i + 1 < n; i += 2) {
    const c = s.charCodeAt(i) | (s.charCodeAt(i + 1) << 16);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  if (i < n) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  lanes[0] = a;
  lanes[1] = b;
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
