/**
 * Per phone of a campaign: the fingerprint of its stored record (when known) and how often the
 * poll under way has seen it. An open-addressing table on typed arrays, like the ingest's
 * PhoneIndex: 18 bytes a slot, sized for the campaign's audience at 70% full (1,000,000 phones:
 * 26 MB), growing by half when 80% full; a Map of strings would cost well over 100 bytes a phone.
 * Any size works (the slot is the hash scaled to it), so the table is never twice too large.
 *
 * An E.164 phone (`+` and up to 15 digits) is its own key, as a number; any other text gets a
 * negative number of its own from a small Map (a service that sends such phones is rare).
 */
export class FingerprintIndex {
  private keys: Float64Array;
  /** The stored record's fingerprint, two 32-bit lanes. */
  private fpA: Uint32Array;
  private fpB: Uint32Array;
  /** KNOWN | STORED | STAGED | times seen by the poll under way (5 bits). */
  private state: Uint8Array;
  private capacity = 0;
  private oddPhones = new Map<string, number>();
  /** Phones in the table. */
  size = 0;

  constructor(expected = 0) {
    const capacity = Math.max(1024, Math.ceil(expected / 0.7));
    this.keys = new Float64Array(capacity);
    this.fpA = new Uint32Array(capacity);
    this.fpB = new Uint32Array(capacity);
    this.state = new Uint8Array(capacity);
    this.capacity = capacity;
  }

  /** Bytes held, for the cache's budget. */
  get bytes(): number {
    return this.capacity * 18;
  }

  /** The key of a (trimmed) phone: the number itself when it is E.164, else a number of its own. */
  keyOf(phone: string): number {
    const number = e164Number(phone);
    if (number > 0) return number;
    let key = this.oddPhones.get(phone);
    if (key === undefined) {
      key = -(this.oddPhones.size + 1);
      this.oddPhones.set(phone, key);
    }
    return key;
  }

  /** The slot of `key`, added (with `state`) when new. Slots move when the table grows. */
  slot(key: number, state: number): number {
    if ((this.size + 1) * 5 > this.capacity * 4) this.grow();
    const { keys, capacity } = this;
    let i = slotOf(key, capacity);
    for (;;) {
      const k = keys[i]!;
      if (k === key) return i;
      if (k === 0) break;
      if (++i === capacity) i = 0;
    }
    keys[i] = key;
    this.state[i] = state;
    this.size += 1;
    return i;
  }

  stateAt(i: number): number {
    return this.state[i]!;
  }

  setState(i: number, state: number): void {
    this.state[i] = state;
  }

  /** Whether slot `i`'s stored fingerprint is known and equal to `a`, `b`. */
  storedIs(i: number, a: number, b: number): boolean {
    return (this.state[i]! & STORED) !== 0 && this.fpA[i] === a && this.fpB[i] === b;
  }

  /** Records what Redis holds for slot `i`: a fingerprint, or none (`a` undefined). */
  setStored(i: number, a: number | undefined, b = 0): void {
    if (a === undefined) {
      this.state[i] = (this.state[i]! & ~STORED) | KNOWN;
      return;
    }
    this.fpA[i] = a;
    this.fpB[i] = b;
    this.state[i] = this.state[i]! | KNOWN | STORED;
  }

  /** True the first time `phone` is seen since the table was made or `resetPoll`: a compact set of phones. */
  firstSight(phone: string): boolean {
    const i = this.slot(this.keyOf(phone), 0);
    const state = this.state[i]!;
    if (state & SEEN_MASK) return false;
    this.state[i] = state | 1;
    return true;
  }

  /** A new poll (or attempt) starts: nothing seen yet, nothing staged. */
  resetPoll(): void {
    const { state } = this;
    for (let i = 0; i < state.length; i++)
      if (state[i]! & (SEEN_MASK | STAGED)) state[i] = state[i]! & (KNOWN | STORED);
  }

  private grow(): void {
    const { keys, fpA, fpB, state } = this;
    const capacity = Math.ceil(this.capacity * 1.5);
    this.keys = new Float64Array(capacity);
    this.fpA = new Uint32Array(capacity);
    this.fpB = new Uint32Array(capacity);
    this.state = new Uint8Array(capacity);
    this.capacity = capacity;
    for (let j = 0; j < keys.length; j++) {
      const key = keys[j]!;
      if (key === 0) continue;
      let i = slotOf(key, capacity);
      while (this.keys[i] !== 0) if (++i === capacity) i = 0;
      this.keys[i] = key;
      this.fpA[i] = fpA[j]!;
      this.fpB[i] = fpB[j]!;
      this.state[i] = state[j]!;
    }
  }
}

/** The stored fingerprint of the phone is known (from the last poll, or read from Redis). */
export const KNOWN = 0x80;
/** ... and there is one (else the phone is new to the campaign). */
export const STORED = 0x40;
/** A changed record of this phone waits to be written, in this poll. */
export const STAGED = 0x20;
/** Times the poll under way has seen the phone (saturates at 31). */
export const SEEN_MASK = 0x1f;

/** The digits of `+` and 1 to 15 digits, the first not 0, as a number; 0 for anything else. */
function e164Number(phone: string): number {
  const n = phone.length;
  if (n < 2 || n > 16 || phone.charCodeAt(0) !== 43 /* + */ || phone.charCodeAt(1) === 48) return 0;
  let value = 0;
  for (let i = 1; i < n; i++) {
    const d = phone.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return 0;
    value = value * 10 + d;
  }
  return value;
}

/** The home slot of `key` in a table of `capacity` slots. */
function slotOf(key: number, capacity: number): number {
  // Mix the low and high parts of the number; multiplicative hashing spreads neighbours apart.
  const low = key % 0x100000000;
  const high = Math.floor(key / 0x100000000);
  let h = Math.imul(low ^ Math.imul(high, 0x9e3779b1), 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  // The hash as a fraction of 2^32, scaled to the table: any capacity, no modulo.
  return Math.floor(((h >>> 0) * capacity) / 0x100000000);
}
