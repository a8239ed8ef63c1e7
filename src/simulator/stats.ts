/** What the simulator answered, per operation and status: for tests and benchmarks. */
export class SimStats {
  readonly byOperation = new Map<string, Map<number, number>>();
  total = 0;
  /** Writes applied, including those whose response was then failed on purpose. */
  applied = 0;
  /** Writes applied whose response was failed on purpose. */
  committedThenFailed = 0;
  peakInflight = 0;

  record(operation: string, status: number): void {
    this.total += 1;
    const counts = this.byOperation.get(operation) ?? new Map<number, number>();
    counts.set(status, (counts.get(status) ?? 0) + 1);
    this.byOperation.set(operation, counts);
  }

  /** Responses with this status, for one operation or all. */
  count(status: number, operation?: string): number {
    const ops = operation ? [this.byOperation.get(operation)] : [...this.byOperation.values()];
    return ops.reduce((sum, counts) => sum + (counts?.get(status) ?? 0), 0);
  }

  reset(): void {
    this.byOperation.clear();
    this.total = 0;
    this.applied = 0;
    this.committedThenFailed = 0;
    this.peakInflight = 0;
  }
}
