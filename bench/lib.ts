/** Small helpers shared by the benchmarks: timing, formatting, memory. */

export async function timeIt(run: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

/** Runs `count` calls of `task` with at most `concurrency` at once. */
export async function pool(
  count: number,
  concurrency: number,
  task: (i: number) => Promise<unknown>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
}

export const fmt = (n: number, digits = 0) =>
  n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });

export const mb = (bytes: number) => `${fmt(bytes / 1024 / 1024, 1)} MB`;

export function table(rows: Record<string, string | number>[]): void {
  console.table(rows);
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}
