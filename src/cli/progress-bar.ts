import { createReadStream } from "node:fs";
import { Presets, SingleBar } from "cli-progress";

/**
 * Data rows of a file, estimated by counting line ends (LF, else CR) minus the header: one quick
 * pass. Quoted line breaks make it high, a missing final line end low; the bar follows the reader.
 */
export async function estimateRows(path: string): Promise<number> {
  let lf = 0;
  let cr = 0;
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lf += 1;
    if (lf === 0) for (let i = chunk.indexOf(13); i !== -1; i = chunk.indexOf(13, i + 1)) cr += 1;
  }
  return Math.max(0, (lf || cr) - 1);
}

export interface RowProgress {
  /** Rows read so far, and counts to show beside them. */
  update(rows: number, counts?: Record<string, number>): void;
  /** Draws the final state and leaves the line. */
  stop(rows?: number): void;
  /** Stops when `work` ends: at its row count (`rowsOf`) when it succeeds, where it was when it fails. */
  until<T>(work: Promise<T>, rowsOf: (result: T) => number): Promise<T>;
}

/** `until` for any progress: stop once the work has ended, either way. */
function untilDone(p: Pick<RowProgress, "stop">): RowProgress["until"] {
  return (work, rowsOf) =>
    work.then(
      (result) => {
        p.stop(rowsOf(result));
        return result;
      },
      (error: unknown) => {
        p.stop();
        throw error;
      },
    );
}

const NONE: RowProgress = { update() {}, stop() {}, until: (work) => work };

/**
 * A progress bar of rows on stderr (cli-progress), only on a terminal and never with --json: logs,
 * pipes and scripts see the same output as before. `counts` names what is shown after the rows.
 */
export async function rowProgress(
  path: string,
  o: { enabled: boolean; label: string; counts?: readonly string[] },
): Promise<RowProgress> {
  if (!o.enabled || process.stderr.isTTY !== true) return NONE;
  let total = await estimateRows(path).catch(() => -1);
  if (total < 0) return NONE; // unreadable: the command says why, without a bar first
  const counts = o.counts ?? [];
  const extra = counts.map((c) => ` | {${c}} ${c}`).join("");
  const bar = new SingleBar(
    {
      format: `${o.label} {bar} {percentage}% | {value}/{total} rows${extra} | {rate} rows/s | ETA {eta_formatted}`,
      stream: process.stderr,
      hideCursor: true,
      fps: 10,
      etaBuffer: 50,
    },
    Presets.shades_classic,
  );
  const started = performance.now();
  let last: Record<string, number> = {};
  const payload = (rows: number, values: Record<string, number> = last) => ({
    rate: Math.round(rows / Math.max((performance.now() - started) / 1000, 0.001)),
    ...Object.fromEntries(counts.map((c) => [c, values[c] ?? 0])),
  });
  bar.start(Math.max(total, 1), 0, payload(0));
  const progress: Omit<RowProgress, "until"> = {
    update(rows, values) {
      if (values) last = values;
      if (rows > total) {
        total = rows;
        bar.setTotal(total);
      }
      bar.update(rows, payload(rows, values));
    },
    stop(rows) {
      if (rows !== undefined) {
        // The estimate was only that: the bar ends at what was read.
        bar.setTotal(Math.max(rows, 1));
        bar.update(rows, payload(rows));
      }
      bar.stop();
    },
  };
  return { ...progress, until: untilDone(progress) };
}
