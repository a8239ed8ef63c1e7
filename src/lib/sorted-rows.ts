import { createReadStream } from "node:fs";
import { open, rm } from "node:fs/promises";
import { createInterface } from "node:readline";
import { tempNameFor } from "./atomic-file.ts";

/** Rows sorted in memory at once; beyond, sorted runs go to temporary files and are merged. */
export const RUN_ROWS = 20_000;

const byKey = (a: string[], b: string[]) => (a[0]! < b[0]! ? -1 : a[0]! > b[0]! ? 1 : 0);

/**
 * Rows sorted by their first cell, each key once (the last row read of it), in bounded memory: up
 * to `runRows` rows are sorted in memory; more are sorted in runs written to temporary files named
 * beside `spillAt` (swept like any temporary file of ours), then merged (an external merge sort).
 * The runs are removed when the rows are all read, or the reader stops, or a read fails.
 */
export async function* sortedUniqueRows(
  rows: AsyncIterable<string[]>,
  o: { spillAt: string; runRows?: number },
): AsyncGenerator<string[]> {
  const runRows = o.runRows ?? RUN_ROWS;
  const runs: string[] = [];
  try {
    let batch: string[][] = [];
    for await (const row of rows) {
      batch.push(row);
      if (batch.length >= runRows) {
        runs.push(await writeRun(o.spillAt, sortedUnique(batch)));
        batch = [];
      }
    }
    if (runs.length === 0) {
      yield* sortedUnique(batch);
      return;
    }
    if (batch.length > 0) runs.push(await writeRun(o.spillAt, sortedUnique(batch)));
    yield* merge(runs.map(readRun));
  } finally {
    await Promise.all(runs.map((run) => rm(run, { force: true })));
  }
}

/** Sorted by key, each key once (the last row of it). */
function sortedUnique(rows: string[][]): string[][] {
  rows.sort(byKey); // stable: of equal keys, the last read stays last
  return rows.filter((row, i) => i + 1 === rows.length || rows[i + 1]![0] !== row[0]);
}

/** A sorted run in a temporary file beside `path`: one JSON row a line. */
async function writeRun(path: string, rows: string[][]): Promise<string> {
  const name = tempNameFor(`${path}.run`);
  const handle = await open(name, "w");
  try {
    for (let i = 0; i < rows.length; i += 1000) {
      await handle.write(
        `${rows
          .slice(i, i + 1000)
          .map((row) => JSON.stringify(row))
          .join("\n")}\n`,
      );
    }
  } finally {
    await handle.close();
  }
  return name;
}

async function* readRun(name: string): AsyncGenerator<string[]> {
  const lines = createInterface({ input: createReadStream(name), crlfDelay: Number.POSITIVE_INFINITY });
  for await (const line of lines) if (line) yield JSON.parse(line) as string[];
}

/** The rows of sorted runs in one sorted sequence, each key once (of equal keys, the later run's). */
async function* merge(sources: AsyncGenerator<string[]>[]): AsyncGenerator<string[]> {
  const heads = await Promise.all(sources.map((s) => s.next()));
  try {
    for (;;) {
      let best = -1;
      for (let i = 0; i < heads.length; i++) {
        const head = heads[i]!;
        if (head.done) continue;
        if (best === -1 || byKey(head.value, heads[best]!.value as string[]) <= 0) best = i;
      }
      if (best === -1) return;
      const row = heads[best]!.value as string[];
      // Every run holding this key moves past it; the latest run's row (the last chosen) is kept.
      for (let i = 0; i < heads.length; i++) {
        if (i !== best && !heads[i]!.done && (heads[i]!.value as string[])[0] === row[0])
          heads[i] = await sources[i]!.next();
      }
      heads[best] = await sources[best]!.next();
      yield row;
    }
  } finally {
    // A reader that stops early closes the runs' streams before they are removed.
    await Promise.all(sources.map((s) => s.return(undefined)));
  }
}
