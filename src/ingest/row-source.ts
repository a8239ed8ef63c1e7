import { IngestFileError } from "./ingest-file-error.ts";

/** Records of a file, CSV or spreadsheet, as arrays of cell texts. */
export interface RowSource {
  rows: AsyncIterator<string[]>;
  /**
   * Where the record just read starts: the physical line of a CSV file (quoted cells may span
   * several), the row number of a sheet. Called once per record, in order.
   */
  lineOf(cells: readonly string[]): number;
  /** Stops reading and frees what the source holds. */
  close(): void;
}

export function asFileError(error: unknown, file: string): IngestFileError {
  if (error instanceof IngestFileError) return error;
  return new IngestFileError("unreadable", file, `cannot read the file: ${(error as Error).message}`);
}
