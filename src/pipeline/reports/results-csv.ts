import Papa from "papaparse";
import { formulaSafe } from "../../lib/formula-safe.ts";
import { sortedUniqueRows } from "../../lib/sorted-rows.ts";
import type { ResultRecord } from "../model/results.ts";

/**
 * The one results CSV (docs/operations.md, "The results CSV"): the file sink's, `vcw report --csv`'s
 * and the dashboard's download. These columns, in this order.
 */
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
  "caller_number",
] as const;

/**
 * One contact's row, as read (the phone first: rows are sorted and kept once by it), and the number
 * its campaign called from (a pool dialer's; empty for a job's one dialer, whose number vcw may not know).
 */
export function resultRow(r: ResultRecord, callerNumber = ""): string[] {
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
    callerNumber,
  ];
}

export interface ResultsCsvOptions {
  /** How the phone is shown: whole (the file sink's folder), or masked (a page's download). */
  phone?: (e164: string) => string;
  /** Where sorted runs of a large campaign are written, beside this path (`lib/sorted-rows.ts`). */
  spillAt: string;
  runRows?: number;
  /** The number the campaign called from (`CampaignInfo.dialerNumber`), in every row. */
  callerNumber?: string | undefined;
}

const LINE = "\r\n";

/**
 * The results CSV as text, a batch of rows at a time: UTF-8 with a BOM (a spreadsheet reads it as
 * UTF-8), CRLF lines, the header, then one row per phone sorted by phone (a phone read twice, as
 * Redis' HSCAN may, once), every cell formula-safe so `+1415...` stays text. Returns the rows.
 */
export async function* resultsCsv(
  records: AsyncIterable<ResultRecord>,
  o: ResultsCsvOptions,
): AsyncGenerator<string, number> {
  yield `\uFEFF${Papa.unparse([[...RESULT_COLUMNS]], { newline: LINE })}${LINE}`;
  const shown = o.phone ?? ((p: string) => p);
  let batch: string[][] = [];
  let count = 0;
  const sorted = sortedUniqueRows(rowsOf(records, o.callerNumber), {
    spillAt: o.spillAt,
    ...(o.runRows ? { runRows: o.runRows } : {}),
  });
  for await (const [phone = "", ...rest] of sorted) {
    batch.push([shown(phone), ...rest].map(formulaSafe));
    count += 1;
    if (batch.length >= 1000) {
      yield `${Papa.unparse(batch, { newline: LINE })}${LINE}`;
      batch = [];
    }
  }
  if (batch.length > 0) yield `${Papa.unparse(batch, { newline: LINE })}${LINE}`;
  return count;
}

async function* rowsOf(
  records: AsyncIterable<ResultRecord>,
  callerNumber?: string,
): AsyncGenerator<string[]> {
  for await (const r of records) yield resultRow(r, callerNumber);
}
