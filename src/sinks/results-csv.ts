import { createReadStream } from "node:fs";
import { type FileHandle, open, rename, rm } from "node:fs/promises";
import { createInterface } from "node:readline";
import Papa from "papaparse";
import { tempNameFor } from "../lib/atomic-file.ts";
import { formulaSafe } from "../lib/formula-safe.ts";
import type { ResultRecord } from "../pipeline/results/model.ts";

export const RESULT_COLUMNS = [
  "phone",
  "first_name",
  "last_name",
  "status",
  "duration_sec",
  "sentiment",
  "meeting_scheduled",
  "transferred",
  "message_sent",
  "error",
  "recording_url",
  "transcript",
] as const;

/** One results row; every cell formula-safe, so `+1415...` stays text in a spreadsheet. */
export function resultRow(r: ResultRecord): string[] {
  return [
    r.phone,
    r.first_name,
    r.last_name,
    r.status,
    String(r.durationSec),
    r.sentiment,
    String(r.meeting),
    String(r.transferred),
    String(r.messageSent),
    r.error,
    r.recordingUrl,
    r.transcript,
  ].map(formulaSafe);
}

/** Rows sorted in memory at once; beyond, sorted runs go to temporary files and are merged. */
export const RUN_ROWS = 20_000;

const byPhone = (a: string[], b: string[]) => (a[0]! < b[0]! ? -1 : a[0]! > b[0]! ? 1 : 0);

/**
 * Writes a results CSV (UTF-8 with BOM, one row per phone, sorted by phone) atomically, in bounded
 * memory: up to `runRows` rows are sorted in memory; a larger campaign is sorted in runs written
 * to temporary files beside `path`, then merged (an external merge sort). A phone that comes twice
 * (Redis' HSCAN may repeat an entry) is written once. Returns the rows written.
 */
export async function writeResultsCsv(
  path: string,
  records: AsyncIterable<ResultRecord>,
  o: { runRows?: number } = {},
): Promise<number> {
  const runRows = o.runRows ?? RUN_ROWS;
  const runs: string[] = [];
  const tmp = tempNameFor(path);
  let out: FileHandle | undefined;
  try {
    let rows: string[][] = [];
    for await (const r of records) {
      rows.push(resultRow(r));
      if (rows.length >= runRows) {
        runs.push(await writeRun(path, sortedUnique(rows)));
        rows = [];
      }
    }
    out = await open(tmp, "w");
    await out.write(`\uFEFF${Papa.unparse([[...RESULT_COLUMNS]], { newline: "\r\n" })}\r\n`);
    const sink = batchedWriter(out);
    if (runs.length > 0 && rows.length > 0) runs.push(await writeRun(path, sortedUnique(rows)));
    const written = await sink.all(runs.length === 0 ? sortedUnique(rows) : merge(runs.map(readRun)));
    await sink.flush();
    await out.sync();
    await out.close();
    out = undefined;
    await rename(tmp, path);
    return written;
  } finally {
    await out?.close().catch(() => undefined);
    await rm(tmp, { force: true });
    await Promise.all(runs.map((run) => rm(run, { force: true })));
  }
}

/** Sorted by phone, each phone once (the last row of it). */
function sortedUnique(rows: string[][]): string[][] {
  rows.sort(byPhone); // stable: of equal phones, the last read stays last
  return rows.filter((row, i) => i + 1 === rows.length || rows[i + 1]![0] !== row[0]);
}

/** A sorted run in a temporary file beside `path` (the file sink's sweep knows such names): one JSON row a line. */
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

/** The rows of sorted runs in one sorted sequence, each phone once (of equal phones, the later run's). */
async function* merge(sources: AsyncGenerator<string[]>[]): AsyncGenerator<string[]> {
  const heads = await Promise.all(sources.map((s) => s.next()));
  for (;;) {
    let best = -1;
    for (let i = 0; i < heads.length; i++) {
      const head = heads[i]!;
      if (head.done) continue;
      if (best === -1 || byPhone(head.value, heads[best]!.value as string[]) <= 0) best = i;
    }
    if (best === -1) return;
    const row = heads[best]!.value as string[];
    // Every run holding this phone moves past it; the latest run's row (the last chosen) is kept.
    for (let i = 0; i < heads.length; i++) {
      if (i !== best && !heads[i]!.done && (heads[i]!.value as string[])[0] === row[0])
        heads[i] = await sources[i]!.next();
    }
    heads[best] = await sources[best]!.next();
    yield row;
  }
}

/** Writes rows in batches of CSV text; counts them. */
function batchedWriter(handle: FileHandle) {
  let batch: string[][] = [];
  let count = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    await handle.write(`${Papa.unparse(batch, { newline: "\r\n" })}\r\n`);
    batch = [];
  };
  return {
    flush,
    async all(rows: Iterable<string[]> | AsyncIterable<string[]>): Promise<number> {
      for await (const row of rows) {
        batch.push(row);
        count += 1;
        if (batch.length >= 1000) await flush();
      }
      return count;
    },
  };
}
