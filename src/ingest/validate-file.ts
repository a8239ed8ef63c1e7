import { openErrorReport } from "./error-report.ts";
import type { IngestOptions } from "./options.ts";
import { type Totals, topCodes } from "./outcome.ts";
import { ContactFileReader, type FileInfo } from "./reader.ts";

export interface ValidationSummary extends Totals {
  file: string;
  encoding: string;
  bom: boolean;
  delimiter: string;
  linebreak: string;
  /** Contact field -> column header. */
  columns: FileInfo["columns"]["mapped"];
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
  const errors = await openErrorReport(report.errorsPath ?? `${file}.errors.csv`, reader.info.headers);
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
    encoding: info.encoding,
    bom: info.bom,
    delimiter: info.delimiter,
    linebreak: info.linebreak,
    columns: info.columns.mapped,
    unknownColumns: info.columns.unknown,
    ...totals,
    topErrors: topCodes(totals),
    errorsFile,
    ms: Math.round(ms),
  };
}
