import { open } from "node:fs/promises";
import Papa from "papaparse";
import { REPORT_COLUMNS } from "./error-report.ts";

/** How much of a file is read to recognise a report: its header line is shorter than this. */
const HEADER_BYTES = 64 * 1024;
const BOM = "\uFEFF";

/**
 * Whether `path` is an error report vcw wrote: it starts with the byte-order mark vcw writes, and
 * its first line is a CSV header ending in vcw's five report columns. Such a file may be replaced
 * by a new report; anything else (absent files aside) is someone else's and is never overwritten.
 */
export async function isVcwErrorReport(path: string): Promise<boolean> {
  const handle = await open(path, "r").catch(() => undefined);
  if (!handle) return false;
  try {
    const buffer = Buffer.alloc(HEADER_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEADER_BYTES, 0);
    return isReportHeader(buffer.subarray(0, bytesRead).toString("utf8"));
  } finally {
    await handle.close();
  }
}

/** Pure: whether the start of a file is vcw's report header (see above). */
export function isReportHeader(start: string): boolean {
  if (!start.startsWith(BOM)) return false;
  const end = start.indexOf("\r\n");
  if (end < 0) return false;
  const parsed = Papa.parse<string[]>(start.slice(BOM.length, end), { header: false });
  const cells = parsed.data[0] ?? [];
  const tail = cells.slice(-REPORT_COLUMNS.length);
  return tail.length === REPORT_COLUMNS.length && tail.every((cell, i) => cell === REPORT_COLUMNS[i]);
}
