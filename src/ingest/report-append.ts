import { appendFile, stat } from "node:fs/promises";
import Papa from "papaparse";
import { ECHO_COLUMNS, echoCell, REPORT_COLUMNS, reportLimits } from "./error-report.ts";
import { formulaSafe } from "./text.ts";

/** A valid row set aside after the import (the calling plan): its line, phone, code and why. */
export interface LateSkip {
  line: number;
  phone: string;
  code: string;
  message: string;
}

const format = (cells: string[]) => `${Papa.unparse([cells.map(formulaSafe)], { newline: "\r\n" })}\r\n`;

/**
 * Adds lines to a file's error report (`openErrorReport`'s columns: the original columns left
 * empty, then row_number, field, value, error_code, message), creating it with its header when the
 * import wrote none. Returns its path, or undefined when there was nothing to add.
 */
export async function appendToErrorReport(
  path: string,
  headers: readonly string[],
  skips: readonly LateSkip[],
): Promise<string | undefined> {
  if (skips.length === 0) return undefined;
  const limits = reportLimits();
  const width = Math.min(headers.length, ECHO_COLUMNS);
  const exists = await stat(path).then(
    () => true,
    () => false,
  );
  const blank = Array<string>(width).fill("");
  let text = exists
    ? ""
    : `\uFEFF${format([...headers.slice(0, width).map((h) => echoCell(h, limits.cellChars)), ...REPORT_COLUMNS])}`;
  for (const s of skips) text += format([...blank, String(s.line), "phone", s.phone, s.code, s.message]);
  await appendFile(path, text);
  return path;
}
