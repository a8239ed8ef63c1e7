import { createReadStream, type ReadStream } from "node:fs";
import { zipIsWhole } from "./file-kind.ts";
import { IngestFileError } from "./ingest-file-error.ts";
import { asFileError, type RowSource } from "./row-source.ts";
import { SharedStrings } from "./shared-strings.ts";

/** The workbook's sheets in tab order, as exceljs reads them from xl/workbook.xml. */
interface SheetModel {
  name: string;
  state?: string;
}
interface StreamedWorkbook {
  model?: { sheets?: SheetModel[] };
}
interface StreamedSheet {
  name: string;
  /** A temporary file's stream when exceljs deferred the sheet until after the shared strings. */
  iterator: unknown;
  [Symbol.asyncIterator](): AsyncIterator<StreamedRow>;
}

/** What exceljs's parse() yields: a sheet, or (with sharedStrings: "emit") one shared string. */
interface ParseEvent {
  eventType?: string;
  value?: StreamedSheet;
  index?: number;
  text?: unknown;
}

export interface OpenedSheet {
  source: RowSource;
  sheet: string;
  sheets: string[];
}

const ZEROS = /^0+$/;

/**
 * A cell as text, the way a CSV export would have written it. Pure. Integers keep every digit
 * (14155550123, not 1.4E+10), and the leading zeros of a "0000000000" format; past 1e21 JavaScript
 * writes 1e+21, which the phone check reports as scientific notation, as for such a CSV cell.
 */
export function cellText(value: unknown, numFmt?: unknown, strings?: SharedStrings): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number") {
    const text = String(value);
    return typeof numFmt === "string" && ZEROS.test(numFmt) && /^\d+$/.test(text)
      ? text.padStart(numFmt.length, "0")
      : text;
  }
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  if (value instanceof Date) {
    const iso = value.toISOString();
    return iso.endsWith("T00:00:00.000Z") ? iso.slice(0, 10) : iso;
  }
  if (typeof value === "object") {
    const v = value as {
      sharedString?: number;
      richText?: { text?: string }[];
      result?: unknown;
      error?: string;
      text?: unknown;
    };
    if (typeof v.sharedString === "number") return strings?.get(v.sharedString) ?? "";
    if (Array.isArray(v.richText)) return v.richText.map((r) => r.text ?? "").join("");
    if ("result" in v || "formula" in v || "sharedFormula" in v) return cellText(v.result, numFmt, strings);
    if (v.error !== undefined) return String(v.error);
    if (v.text !== undefined) return cellText(v.text);
  }
  return String(value);
}

interface StreamedCell {
  value: unknown;
  numFmt?: unknown;
}
export interface StreamedRow {
  number: number;
  eachCell(each: (cell: StreamedCell, column: number) => void): void;
}

/** A row's cells as texts, from column A; cells never written are empty. */
export function rowCells(row: StreamedRow, strings?: SharedStrings): string[] {
  const cells: string[] = [];
  row.eachCell((cell, column) => {
    cells[column - 1] = cellText(cell.value, cell.numFmt, strings);
  });
  for (let i = 0; i < cells.length; i++) cells[i] ??= "";
  return cells;
}

/** Which sheet to read: by name (any case), else by position from 1; by default the first visible one. */
export function chooseSheet(
  sheets: readonly SheetModel[],
  wanted: string | number | undefined,
): string | undefined {
  if (wanted === undefined)
    return (sheets.find((s) => (s.state ?? "visible") === "visible") ?? sheets[0])?.name;
  const text = String(wanted).trim();
  const byName = sheets.find((s) => s.name.toLowerCase() === text.toLowerCase());
  if (byName) return byName.name;
  return /^\d+$/.test(text) ? sheets[Number(text) - 1]?.name : undefined;
}

const isFileStream = (value: unknown): value is ReadStream =>
  typeof value === "object" && value !== null && typeof (value as ReadStream).destroy === "function";

/**
 * One sheet of an .xlsx workbook as a stream of rows, with exceljs's streaming reader: shared
 * strings are held in memory (packed), rows are not. exceljs first inflates each sheet to a
 * temporary file, read once the shared strings are (Excel writes them after the sheets); the files
 * are removed once read, or when the process ends.
 */
export async function openXlsx(
  file: string,
  size: number,
  wanted: string | number | undefined,
): Promise<OpenedSheet> {
  // Refused before exceljs starts: it would leave the sheets it had inflated in the temporary folder.
  if (!(await zipIsWhole(file, size))) {
    throw new IngestFileError(
      "unreadable",
      file,
      "not a readable Excel workbook (.xlsx): the archive is cut short (no directory at its end); was it still being copied?",
    );
  }
  // Loaded on first use: CSV readers do not pay for exceljs's module graph.
  const { default: ExcelJS } = await import("exceljs");
  const input = createReadStream(file, { highWaterMark: 64 * 1024 });
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(input, {
    worksheets: "emit",
    // Emitted to a packed store of ours rather than cached by exceljs as an array (see SharedStrings).
    // exceljs then reads every sheet from a temporary file, once the shared strings are all read.
    sharedStrings: "emit",
    hyperlinks: "ignore",
    // Number formats tell dates from numbers, and keep the zeros of "0000000000".
    styles: "cache",
    entries: "ignore",
  });
  const workbook = reader as unknown as StreamedWorkbook;
  const sheetsOf = () => workbook.model?.sheets ?? [];
  const strings = new SharedStrings();
  const events = (reader as unknown as { parse(): AsyncIterator<ParseEvent> }).parse();
  // Worksheets, in the order of the archive; the shared strings met on the way are stored.
  const worksheets: AsyncIterator<StreamedSheet> = {
    async next() {
      for (;;) {
        const event = await events.next();
        if (event.done) return { done: true, value: undefined };
        const e = event.value;
        if (e.eventType === "worksheet" && e.value) return { done: false, value: e.value };
        if (typeof e.index === "number") strings.add(cellText(e.text));
      }
    },
  };
  let finished = false;
  // Runs exceljs to its end, skipping the other sheets, so that it removes its temporary files.
  const drain = async () => {
    for (;;) {
      const next = await worksheets.next();
      if (next.done) break;
      if (isFileStream(next.value.iterator)) next.value.iterator.destroy();
    }
    finished = true;
  };
  // Stops early. A sheet read from a temporary file means the whole archive was read already:
  // draining is then quick and removes the files. Otherwise reading stops where it is.
  const release = (sheet: StreamedSheet | undefined) => {
    if (finished) return;
    if (sheet && isFileStream(sheet.iterator)) {
      sheet.iterator.destroy();
      drain().catch(() => input.destroy());
    } else input.destroy();
  };

  let target: StreamedSheet | undefined;
  let current: StreamedSheet | undefined;
  try {
    for (;;) {
      const next = await worksheets.next();
      if (next.done) {
        finished = true;
        break;
      }
      current = next.value;
      const name = chooseSheet(sheetsOf(), wanted);
      if (name === undefined) break;
      if (current.name === name) {
        target = current;
        break;
      }
      if (isFileStream(current.iterator)) current.iterator.destroy();
    }
  } catch (error) {
    input.destroy();
    throw workbookError(error, file);
  }
  const sheets = sheetsOf().map((s) => s.name);
  if (!target) {
    release(current);
    if (sheets.length === 0)
      throw new IngestFileError(
        "not_a_workbook",
        file,
        "a ZIP archive with no Excel worksheet: save the contacts as an Excel workbook (.xlsx) or as CSV",
      );
    throw new IngestFileError(
      "sheet_not_found",
      file,
      `the workbook has no sheet ${JSON.stringify(wanted)} (sheets: ${sheets.map((s) => `"${s}"`).join(", ")})`,
    );
  }

  let line = 0;
  const sheet = target;
  const sheetRows = sheet[Symbol.asyncIterator]();
  const rows: AsyncIterator<string[]> = {
    async next() {
      let next: IteratorResult<StreamedRow>;
      try {
        next = await sheetRows.next();
      } catch (error) {
        throw workbookError(error, file);
      }
      if (next.done) {
        await drain().catch(() => undefined);
        return { done: true, value: undefined };
      }
      line = next.value.number;
      return { done: false, value: rowCells(next.value, strings) };
    },
  };
  return { source: { rows, lineOf: () => line, close: () => release(sheet) }, sheet: sheet.name, sheets };
}

function workbookError(error: unknown, file: string): IngestFileError {
  if (error instanceof IngestFileError) return error;
  const message = (error as Error).message;
  return asFileError(new Error(`not a readable Excel workbook (.xlsx): ${message}`), file);
}
