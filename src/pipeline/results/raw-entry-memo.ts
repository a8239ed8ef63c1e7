import { fmix, laneA, laneB } from "./entry-fingerprint.ts";

/**
 * Per position of a campaign's audience: a 64-bit hash of the bytes of an entry read there, with
 * what reading those bytes gave: the entry's fingerprint, its phone's slot in the FingerprintIndex
 * that holds this memo, and whether the phone was not E.164. The same bytes at the same position
 * are the same entry, so the diff takes it without parsing it (audience-diff.ts). Five words a
 * position (1,000,000 entries: 20 MB), made only when a streamed audience (a large one) is read.
 *
 * Slots move when the index grows or is cleared: it clears the memo then. The job's country decides
 * how a phone without a country code reads: the memo is cleared for another.
 */
export class RawEntryMemo {
  private words = NONE;

  /**
   * `expected`: the audience's size as last known, the first allocation's (no copies while it
   * fills); `country`: the job's it is made for.
   */
  constructor(
    private readonly expected: number,
    public country: string | undefined,
  ) {}

  get bytes(): number {
    return this.words.byteLength;
  }

  /** Forgets every position (for `country`, else the same one). */
  reset(country = this.country): void {
    // Zeros are "never written" (find): the room is kept for the next read.
    if (this.words.length > 0) this.words.fill(0);
    this.country = country;
  }

  /** The word offset of position `p`'s memo if its bytes hashed to `h0`, `h1`; -1 otherwise. */
  find(p: number, h0: number, h1: number): number {
    const w = p * WORDS;
    const { words } = this;
    if (w >= words.length || words[w] !== h0 || words[w + 1] !== h1) return -1;
    // A position never written holds zeros: a hash of 0, 0 is never written (rawHash sets a bit).
    return w;
  }

  fingerprintA(w: number): number {
    return this.words[w + 2]!;
  }

  fingerprintB(w: number): number {
    return this.words[w + 3]!;
  }

  slotAt(w: number): number {
    return this.words[w + 4]! >>> 1;
  }

  notE164At(w: number): boolean {
    return (this.words[w + 4]! & 1) === 1;
  }

  set(p: number, h0: number, h1: number, a: number, b: number, slot: number, notE164: boolean): void {
    const w = p * WORDS;
    if (w + WORDS > this.words.length) this.grow(w + WORDS);
    const { words } = this;
    words[w] = h0;
    words[w + 1] = h1;
    words[w + 2] = a;
    words[w + 3] = b;
    words[w + 4] = (slot << 1) | (notE164 ? 1 : 0);
  }

  private grow(need: number): void {
    const first = this.words.length === 0 ? this.expected * WORDS : 0;
    const words = new Uint32Array(Math.max(need, first, Math.ceil(this.words.length * 1.25), WORDS * 1024));
    words.set(this.words);
    this.words = words;
  }
}

const WORDS = 5;
/** Before the first write: one empty array for every memo (thousands of small indexes are cached). */
const NONE = new Uint32Array(0);

/**
 * A 64-bit hash of bytes as two 32-bit lanes into `out`: four bytes a step through the two lanes of
 * the entry fingerprint's murmur3 steps (entry-fingerprint.ts), finished with murmur3's mix; the
 * second lane's low bit set, so no hash is the zeros of a position never written. Not cryptographic:
 * as strong as the poll's digest.
 */
export function rawHash(bytes: Uint8Array, out: Uint32Array): void {
  let a = 0x811c9dc5 ^ bytes.length;
  let b = 0x9747b28c ^ bytes.length;
  const n = bytes.length;
  let i = 0;
  for (; i + 3 < n; i += 4) {
    const c = bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24);
    a = laneA(a, c);
    b = laneB(b, c);
  }
  let tail = 0;
  for (let shift = 0; i < n; i++, shift += 8) tail |= bytes[i]! << shift;
  a = laneA(a, tail);
  b = laneB(b, tail);
  out[0] = fmix(a);
  out[1] = (fmix(b ^ 0x5bd1e995) | 1) >>> 0;
}
