import { VcwError } from "../lib/vcw-error.ts";

export type FileErrorCode =
  | "not_found"
  | "too_large"
  | "empty"
  | "binary"
  | "utf16_without_bom"
  | "line_too_long"
  | "field_too_long"
  | "broken_quotes"
  | "too_many_rows"
  | "no_phone_column"
  | "duplicate_mapping"
  | "unknown_mapped_column"
  | "legacy_excel"
  | "not_a_workbook"
  | "sheet_not_found"
  | "inflate_limit"
  | "shared_strings_limit"
  | "text_too_long"
  | "too_many_columns"
  | "unreadable";

/** The file as a whole cannot be read as contacts; `code` says why, the message says what to do. */
export class IngestFileError extends VcwError {
  override name = "IngestFileError";
  constructor(
    readonly code: FileErrorCode,
    readonly file: string,
    message: string,
  ) {
    super(`${file}: ${message}`);
  }
}
