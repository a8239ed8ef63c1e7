/**
 * Phones seen in a file -> line of their first row, for finding duplicates. An open-addressing hash
 * table on typed arrays: 12 bytes a slot, where a Map of the same numbers costs about 56 bytes an
 * entry. E.164 numbers have at most 15 digits, so they fit a double exactly.
 */
export class PhoneIndex {
  private keys = new Float64Array(1 << 12);
  private lines = new Uint32Array(1 << 12);
  private mask = (1 << 12) - 1;
  size = 0;

  /** The line stored for `phone` (E.164 digits as a number, > 0), or 0 when it is new. */
  get(phone: number): number {
    let slot = this.slotOf(phone);
    while (this.keys[slot] !== 0) {
      if (this.keys[slot] === phone) return this.lines[slot]!;
      slot = (slot + 1) & this.mask;
    }
    return 0;
  }

  /** Stores `phone` -> `line` (line > 0) when the phone is new. */
  add(phone: number, line: number): void {
    if ((this.size + 1) * 4 > this.keys.length * 3) this.grow();
    let slot = this.slotOf(phone);
    while (this.keys[slot] !== 0) {
      if (this.keys[slot] === phone) return;
      slot = (slot + 1) & this.mask;
    }
    this.keys[slot] = phone;
    this.lines[slot] = line;
    this.size += 1;
  }

  private slotOf(phone: number): number {
    // Mix the low and high parts of the number; multiplicative hashing spreads neighbours apart.
    const low = phone % 0x100000000;
    const high = Math.floor(phone / 0x100000000);
    return (Math.imul(low ^ Math.imul(high, 0x9e3779b1), 0x85ebca6b) >>> 0) & this.mask;
  }

  private grow(): void {
    const { keys, lines } = this;
    this.keys = new Float64Array(keys.length * 2);
    this.lines = new Uint32Array(keys.length * 2);
    this.mask = this.keys.length - 1;
    this.size = 0;
    for (let i = 0; i < keys.length; i++) if (keys[i] !== 0) this.add(keys[i]!, lines[i]!);
  }
}
