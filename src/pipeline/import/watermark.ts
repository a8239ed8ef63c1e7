/**
 * The resume cursor of an import: every data row below `value` is settled, so a restarted
 * attempt may skip them. Rows settle out of order (requests run concurrently, ambiguous ones wait
 * for reconciliation); the cursor only passes a row once it is settled.
 */
export class Watermark {
  private readonly open = new Set<number>();
  private next: number;

  constructor(start = 0) {
    this.next = start;
  }

  /** A row was read; valid rows stay open until settled. */
  read(index: number, settled: boolean): void {
    if (!settled) this.open.add(index);
    if (index >= this.next) this.next = index + 1;
  }

  settle(index: number): void {
    this.open.delete(index);
  }

  get value(): number {
    let low = this.next;
    for (const index of this.open) if (index < low) low = index;
    return low;
  }
}
