import { RawEntryMemo } from "./raw-entry-memo.ts";

/**
 * Per phone of a campaign: the fingerprint of its stored record (when known) and how often the
 * poll under way has seen it. An open-addressing table on one typed array, like the ingest's
 * PhoneIndex: 16 bytes a slot (key, state, fingerprint side by side, so a lookup touches one cache
 * line: with four arrays it cost 240 ns a lookup at 1,000,000 phones, mostly cache misses), sized
 * for the campaign's audience at 70% full (1,000,000 phones: 23 MB), growing by half when 80% full.
 * A Map of strings would cost well over 100 bytes a phone. Any size works (the slot is the hash
 * scaled to it), so the table is never twice too large.
 *
 * An E.164 phone (`+` and up to 15 digits, below 2^50) is its own key, as a number; any other text
 * gets a number of its own above 2^50 from a small Map (a service that sends such phones is rare).
 */
export class FingerprintIndex {
  /** What the last streamed read found at each position of the audience, by its bytes (raw-entry-memo.ts). */
  positions: RawEntryMemo | undefined;
  /**
   * Four words a slot: the key's low 32 bits; its high 19 bits with the state above them (bits
   * 19 to 26); the stored fingerprint's two lanes. Key 0 is an empty slot.
   */
  private words: Uint32Array;
  private capacity = 0;
  /** Made on the first phone that is not E.164 (rare): thousands of small indexes may be cached. */
  private oddPhones: Map<string, number> | undefined;
  /** Phones in the table. */
  size = 0;

  constructor(expected = 0) {
    // Small for a small campaign (thousands of them may be cached): the table grows as it fills.
    this.capacity = Math.max(16, Math.ceil(expected / 0.7));
    this.words = new Uint32Array(this.capacity * 4);
  }

  /** It holds `expected` phones without growing. */
  fits(expected: number): boolean {
    return expected * 5 <= this.capacity * 4;
  }

  /** Bytes held, for the cache's budget. */
  get bytes(): number {
    return this.capacity * 16 + (this.positions?.bytes ?? 0);
  }

  /** The memo of positions, made for `country` on the first entry a streamed read remembers. */
  positionsFor(country: string | undefined): RawEntryMemo {
    this.positions ??= new RawEntryMemo(Math.floor(this.capacity * 0.7), country);
    return this.positions;
  }

  /** The key of a (trimmed) phone: the number itself when it is E.164, else a number of its own. */
  keyOf(phone: string): number {
    const number = e164Number(phone);
    if (number > 0) return number;
    this.oddPhones ??= new Map();
    let key = this.oddPhones.get(phone);
    if (key === undefined) {
      key = ODD_KEYS + this.oddPhones.size + 1;
      this.oddPhones.set(phone, key);
    }
    return key;
  }

  /** The slot of `key`, added (with `state`) when new. Slots move when the table grows. */
  slot(key: number, state: number): number {
    if ((this.size + 1) * 5 > this.capacity * 4) this.grow();
    const { words, capacity } = this;
    const low = key % 0x100000000;
    const high = (key - low) / 0x100000000;
    let i = slotOf(low, high, capacity);
    for (;;) {
      const w = i * 4;
      const keyHigh = words[w + 1]! & KEY_HIGH;
      if (words[w] === low && keyHigh === high) return i;
      if (words[w] === 0 && keyHigh === 0) break;
      if (++i === capacity) i = 0;
    }
    words[i * 4] = low;
    words[i * 4 + 1] = high | (state << STATE_SHIFT);
    this.size += 1;
    return i;
  }

  stateAt(i: number): number {
    return this.words[i * 4 + 1]! >>> STATE_SHIFT;
  }

  setState(i: number, state: number): void {
    const w = i * 4 + 1;
    this.words[w] = (this.words[w]! & KEY_HIGH) | (state << STATE_SHIFT);
  }

  /** Whether slot `i`'s stored fingerprint is known and equal to `a`, `b`. */
  storedIs(i: number, a: number, b: number): boolean {
    const w = i * 4;
    return (this.stateAt(i) & STORED) !== 0 && this.words[w + 2] === a && this.words[w + 3] === b;
  }

  /** Records what Redis holds for slot `i`: a fingerprint, or none (`a` undefined). */
  setStored(i: number, a: number | undefined, b = 0): void {
    const state = this.stateAt(i);
    if (a === undefined) {
      this.setState(i, (state & ~STORED) | KNOWN);
      return;
    }
    this.words[i * 4 + 2] = a;
    this.words[i * 4 + 3] = b;
    this.setState(i, state | KNOWN | STORED);
  }

  /**
   * Empty again, its room kept (an index of another version of the campaign: a new one would be
   * allocated beside it until the old one is collected). The memo's slots go with it.
   */
  clear(): void {
    this.words.fill(0);
    this.size = 0;
    this.oddPhones = undefined;
    this.positions?.reset();
  }

  /** True the first time `phone` is seen since the table was made or `resetPoll`: a compact set of phones. */
  firstSight(phone: string): boolean {
    const i = this.slot(this.keyOf(phone), 0);
    const state = this.stateAt(i);
    if (state & SEEN_MASK) return false;
    this.setState(i, state | 1);
    return true;
  }

  /** A new poll (or attempt) starts: nothing seen yet, nothing staged. */
  resetPoll(): void {
    const { words } = this;
    const clear = ~((SEEN_MASK | STAGED) << STATE_SHIFT);
    for (let w = 1; w < words.length; w += 4) words[w] = words[w]! & clear;
  }

  private grow(): void {
    const old = this.words;
    const capacity = Math.ceil(this.capacity * 1.5);
    const words = new Uint32Array(capacity * 4);
    for (let w = 0; w < old.length; w += 4) {
      const low = old[w]!;
      const high = old[w + 1]! & KEY_HIGH;
      if (low === 0 && high === 0) continue;
      let i = slotOf(low, high, capacity);
      while (words[i * 4] !== 0 || (words[i * 4 + 1]! & KEY_HIGH) !== 0) if (++i === capacity) i = 0;
      words.set(old.subarray(w, w + 4), i * 4);
    }
    this.words = words;
    this.capacity = capacity;
    // Slots moved: what the memo holds of them is stale (a read growing it remembers again after).
    this.positions?.reset();
  }
}

/** Keys of phones that are not E.164 start above every E.164 number (< 10^15 < 2^50). */
const ODD_KEYS = 2 ** 50;
/** The key's high bits in the slot's second word (keys stay below 2^51); the state is above them. */
const KEY_HIGH = (1 << 19) - 1;
const STATE_SHIFT = 19;

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

/** The home slot of a key (its low and high 32-bit parts) in a table of `capacity` slots. */
function slotOf(low: number, high: number, capacity: number): number {
  // Mix the two parts; multiplicative hashing spreads neighbours apart; murmur3's end mixes the rest.
  let h = Math.imul(low ^ Math.imul(high, 0x9e3779b1), 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  // The hash as a fraction of 2^32, scaled to the table: any capacity, no modulo.
  return Math.floor(((h >>> 0) * capacity) / 0x100000000);
}
