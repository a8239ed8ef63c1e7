/**
 * A workbook's shared strings (every text cell of an Excel file is one), packed: their UTF-8 bytes
 * in blocks of 1 MiB, and where each starts and how long it is, in blocks of slots. An array of the
 * strings as exceljs builds them costs about five times more (each keeps the XML text it was cut
 * from); blocks, unlike one buffer grown by doubling, are never copied.
 */
const BLOCK = 1 << 20;
const SLOTS = 1 << 14;
/** Longer strings (a long note) are kept as they are. */
const LONG = BLOCK / 16;

export class SharedStrings {
  private readonly blocks: Buffer[] = [];
  private used = 0;
  /** Per slot: block * BLOCK + offset, or -1 for a long string. */
  private readonly starts: Float64Array[] = [];
  private readonly lengths: Uint32Array[] = [];
  private readonly long = new Map<number, string>();
  size = 0;
  /** UTF-8 bytes of every string added. */
  bytes = 0;

  add(text: string): void {
    const slot = this.size % SLOTS;
    if (slot === 0) {
      this.starts.push(new Float64Array(SLOTS));
      this.lengths.push(new Uint32Array(SLOTS));
    }
    const starts = this.starts[this.starts.length - 1]!;
    if (text.length > LONG) {
      this.bytes += Buffer.byteLength(text);
      this.long.set(this.size++, text);
      starts[slot] = -1;
      return;
    }
    const length = Buffer.byteLength(text);
    this.bytes += length;
    if (this.blocks.length === 0 || this.used + length > BLOCK) {
      this.blocks.push(Buffer.allocUnsafe(BLOCK));
      this.used = 0;
    }
    this.blocks[this.blocks.length - 1]!.write(text, this.used, "utf8");
    starts[slot] = (this.blocks.length - 1) * BLOCK + this.used;
    this.lengths[this.lengths.length - 1]![slot] = length;
    this.used += length;
    this.size++;
  }

  /** The string at `index`, or "" past the end (a broken reference). */
  get(index: number): string {
    if (!(index >= 0 && index < this.size)) return "";
    const block = Math.floor(index / SLOTS);
    const start = this.starts[block]![index % SLOTS]!;
    if (start < 0) return this.long.get(index) ?? "";
    const offset = start % BLOCK;
    const length = this.lengths[block]![index % SLOTS]!;
    return this.blocks[Math.floor(start / BLOCK)]!.toString("utf8", offset, offset + length);
  }
}
