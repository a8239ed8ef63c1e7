import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import Papa from "papaparse";
import lockfile from "proper-lockfile";
import { appendOnce } from "../lib/append-once.ts";
import { sweepTemporaryFiles, writeFileAtomic } from "../lib/atomic-file.ts";
import { formulaSafe } from "../lib/formula-safe.ts";
import { safeFileName } from "../lib/safe-file-name.ts";
import type { ResultRecord } from "../pipeline/results/model.ts";
import type { Delivery, Sink } from "./delivery.ts";

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

/** Writes a results CSV (UTF-8 with BOM, sorted by phone) atomically. */
export async function writeResultsCsv(path: string, records: AsyncIterable<ResultRecord>): Promise<number> {
  const rows: string[][] = [];
  for await (const r of records) rows.push(resultRow(r));
  rows.sort((a, b) => (a[0]! < b[0]! ? -1 : a[0]! > b[0]! ? 1 : 0));
  await writeFileAtomic(
    path,
    `\uFEFF${Papa.unparse([[...RESULT_COLUMNS], ...rows], { newline: "\r\n" })}\r\n`,
  );
  return rows.length;
}

/**
 * Per campaign: `<campaign>.results.csv` (one row per contact, rewritten whole, atomically) and
 * `<campaign>.events.jsonl` (one line per summary delivered, each key once). Digests go to
 * `<job>.digest.jsonl`. Several processes may deliver to one folder at once: each delivery holds
 * a lock file (proper-lockfile) while it checks the log for its key and appends its one line, so
 * no line is lost or written twice.
 */
export function fileSink(o: { dir: string }): Sink {
  return {
    async deliver(d: Delivery) {
      await mkdir(o.dir, { recursive: true });
      const p = d.payload;
      const base = safeFileName(p.kind === "digest" ? `${p.job}.digest` : `${p.campaign.id}`);
      const log = join(o.dir, p.kind === "digest" ? `${base}.jsonl` : `${base}.events.jsonl`);
      const release = await lockfile.lock(log, {
        realpath: false,
        stale: 10_000,
        retries: { retries: 200, minTimeout: 10, maxTimeout: 250, randomize: true },
      });
      try {
        // Under the lock no other writer of this file is alive: a temporary file is a killed one's.
        await sweepTemporaryFiles(o.dir, `${base}.`);
        if (p.kind !== "digest" && d.records)
          await writeResultsCsv(join(o.dir, `${base}.results.csv`), d.records());
        await appendOnce(log, d.idempotencyKey, () =>
          JSON.stringify({ key: d.idempotencyKey, at: new Date().toISOString(), payload: p }),
        );
      } finally {
        await release();
      }
    },
  };
}
