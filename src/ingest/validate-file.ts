import { openErrorReport } from "./error-report.ts";
import type { ColumnNote } from "./headers.ts";
import type { IngestOptions } from "./options.ts";
import { type Totals, topCodes } from "./outcome.ts";
import { ContactFileReader, type FileInfo } from "./reader.ts";

export interface ValidationSummary extends Totals {
  file: string;
  format: FileInfo["format"];
  encoding: string;
  bom: boolean;
  delimiter: string;
  linebreak: string;
  /** The sheet read and the workbook's sheets (workbooks only). */
  sheet: string | undefined;
  sheets: string[];
  headerLine: number;
  /** Lines above the header that were skipped (a note, a title). */
  preambleLines: number;
  /** Contact field -> column header; for the phone, the column tried first. */
  columns: FileInfo["columns"]["mapped"];
  /** Phone columns in the order they are tried. */
  phoneColumns: string[];
  /** Each column used, and why. */
  mapping: ColumnNote[];
  /** Columns that looked like a field but are not used, and why. */
  ignoredColumns: ColumnNote[];
  unknownColumns: string[];
  topErrors: { code: string; rows: number }[];
  /** Where the error report was written, when it was. */
  errorsFile: string | undefined;
  ms: number;
}

export interface ValidateOptions {
  /** Error report path; default `<file>.errors.csv`. */
  errorsPath?: string;
  /** Write the report even when there is nothing in it. */
  alwaysWriteReport?: boolean;
  /** Hears the data rows read so far, every 500 rows (a progress bar). */
  onProgress?: (rows: number) => void;
}

/** Reads a whole file (no network), writes its error report, returns the summary. */
export async function validateFile(
  file: string,
  options: Partial<IngestOptions> = {},
  report: ValidateOptions = {},
): Promise<ValidationSummary> {
  const started = performance.now();
  const reader = await ContactFileReader.open(file, options);
  const errors = await openErrorReport(report.errorsPath ?? `${file}.errors.csv`, reader.info.headers, {
    fileBytes: reader.info.bytes,
    ...(options.maxFieldChars ? { maxFieldChars: options.maxFieldChars } : {}),
  });
  try {
    let rows = 0;
    for await (const outcome of reader) {
      if (outcome.kind !== "valid" || outcome.warnings.length > 0) await errors.add(outcome);
      if (report.onProgress && ++rows % 500 === 0) report.onProgress(rows);
    }
  } catch (error) {
    await errors.discard();
    throw error;
  }
  const written = errors.lines > 0 || report.alwaysWriteReport;
  if (written) await errors.close();
  else await errors.discard();
  return summarize(reader, written ? errors.path : undefined, performance.now() - started);
}

export function summarize(
  reader: ContactFileReader,
  errorsFile: string | undefined,
  ms: number,
): ValidationSummary {
  const { info, totals } = reader;
  return {
    file: info.file,
    format: info.format,
    encoding: info.encoding,
    bom: info.bom,
    delimiter: info.delimiter,
    linebreak: info.linebreak,
    sheet: info.sheet,
    sheets: info.sheets,
    headerLine: info.headerLine,
    preambleLines: info.preambleLines,
    columns: info.columns.mapped,
    phoneColumns: info.columns.phones.map((p) => p.header),
    mapping: info.columns.chosen,
    ignoredColumns: info.columns.ignored,
    unknownColumns: info.columns.unknown,
    ...totals,
    topErrors: topCodes(totals),
    errorsFile,
    ms: Math.round(ms),
  };
}
