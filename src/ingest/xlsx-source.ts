import { createReadStream, type ReadStream } from "node:fs";
import ExcelJS from "exceljs";
import { IngestFileError } from "./ingest-file-error.ts";
import { asFileError, type RowSource } from "./row-source.ts";

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
  [Symbol.asyncIterator](): AsyncIterator<{ number: number; values: unknown }>;
}

export interface OpenedSheet {
  source: RowSource;
  sheet: string;
  sheets: string[];
}

/** A cell as text, the way a CSV export would have written it. Pure. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  // Integers keep every digit (14155550123, not 1.4E+10); past 1e21 JavaScript writes 1e+21, which
  // the phone check reports as scientific notation, as it does for such a CSV cell.
  if (typeof value === "number") return String(value);
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "object") {
    const v = value as { richText?: { text?: string }[]; result?: unknown; error?: string; text?: unknown };
    if (Array.isArray(v.richText)) return v.richText.map((r) => r.text ?? "").join("");
    if ("result" in v || "formula" in v || "sharedFormula" in v) return cellText(v.result);
    if (v.error !== undefined) return String(v.error);
    if (v.text !== undefined) return cellText(v.text);
  }
  return String(value);
}

/** Row values as exceljs gives them (1-based, with holes) to an array of cell texts. Pure. */
export function rowCells(values: unknown): string[] {
  if (!Array.isArray(values)) return [];
  const cells = new Array<string>(Math.max(0, values.length - 1));
  for (let i = 1; i < values.length; i++) cells[i - 1] = cellText(values[i]);
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
 * strings are held in memory, rows are not. Excel writes the shared strings after the sheets, so
 * exceljs first inflates each sheet to a temporary file, removed once read (or when the process
 * ends, if reading stops early).
 */
export async function openXlsx(file: string, wanted: string | number | undefined): Promise<OpenedSheet> {
  const input = createReadStream(file, { highWaterMark: 64 * 1024 });
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(input, {
    worksheets: "emit",
    sharedStrings: "cache",
    hyperlinks: "ignore",
    styles: "ignore",
    entries: "ignore",
  });
  const workbook = reader as unknown as StreamedWorkbook;
  const sheetsOf = () => workbook.model?.sheets ?? [];
  const worksheets = (reader as unknown as AsyncIterable<StreamedSheet>)[Symbol.asyncIterator]();
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
  const stop = () => {
    if (!finished) input.destroy();
  };

  let target: StreamedSheet | undefined;
  try {
    for (;;) {
      const next = await worksheets.next();
      if (next.done) break;
      const name = chooseSheet(sheetsOf(), wanted);
      if (name === undefined) break;
      if (next.value.name === name) {
        target = next.value;
        break;
      }
      if (isFileStream(next.value.iterator)) next.value.iterator.destroy();
    }
  } catch (error) {
    input.destroy();
    throw workbookError(error, file);
  }
  const sheets = sheetsOf().map((s) => s.name);
  if (!target) {
    input.destroy();
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
  const sheetRows = target[Symbol.asyncIterator]();
  const rows: AsyncIterator<string[]> = {
    async next() {
      let next: IteratorResult<{ number: number; values: unknown }>;
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
      return { done: false, value: rowCells(next.value.values) };
    },
  };
  return { source: { rows, lineOf: () => line, close: stop }, sheet: target.name, sheets };
}

function workbookError(error: unknown, file: string): IngestFileError {
  if (error instanceof IngestFileError) return error;
  const message = (error as Error).message;
  return asFileError(new Error(`not a readable Excel workbook (.xlsx): ${message}`), file);
}
