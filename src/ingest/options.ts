import type { ExplicitMapping } from "./headers.ts";
import type { RowOptions } from "./row.ts";

export interface IngestOptions extends RowOptions {
  /** Largest file accepted, in bytes. */
  maxFileBytes: number;
  /** Most data rows accepted. */
  maxRows: number;
  /** Longest record accepted, in characters: a line, or the lines a quoted field joins (a workbook's cell or row). */
  maxLineChars: number;
  /** `field -> header`, wins over the synonyms. */
  mapping: ExplicitMapping;
  /** Sheet of a spreadsheet to read, by name or position from 1; default the first visible sheet. */
  sheet: string | number | undefined;
}

export const DEFAULT_INGEST_OPTIONS: IngestOptions = {
  defaultCountry: undefined,
  emailPolicy: "reject",
  maxFieldChars: 10_000,
  maxFileBytes: 500 * 1024 * 1024,
  maxRows: 5_000_000,
  maxLineChars: 1_000_000,
  mapping: {},
  sheet: undefined,
};
