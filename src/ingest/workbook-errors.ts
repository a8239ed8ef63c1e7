import { IngestFileError } from "./ingest-file-error.ts";
import {
  INFLATE_FLOOR,
  INFLATE_RATIO,
  showBytes,
  type WorkbookLimits,
  XML_PER_CSV_BYTE,
} from "./workbook-limits.ts";

/**
 * The errors a workbook's limits end in: each names the limit, how it is derived, and where it was
 * met (the part, the sheet and row where known).
 */
export const workbookErrors = (file: string, fileBytes: number, limits: WorkbookLimits) => ({
  inflate: (where: string) =>
    new IngestFileError(
      "inflate_limit",
      file,
      `${where} inflates past ${showBytes(limits.inflateBytes)}, the most this ${showBytes(fileBytes)} workbook may inflate to (${INFLATE_RATIO} times its size, at least ${showBytes(INFLATE_FLOOR)}, at most ${XML_PER_CSV_BYTE} times the largest file accepted): a zip bomb? If the workbook is real, save its sheet as CSV`,
    ),
  part: (part: string) =>
    new IngestFileError(
      "inflate_limit",
      file,
      `the workbook's part ${part} inflates past ${showBytes(limits.partBytes)}, the limit for such a part`,
    ),
  text: (where: string) =>
    new IngestFileError(
      "text_too_long",
      file,
      `${where}: a cell, a row or the space between two cells holds more than ${limits.textChars} characters, the limit (maxLineChars)`,
    ),
  columns: (where: string) =>
    new IngestFileError(
      "too_many_columns",
      file,
      `${where}: a cell lies past column XFD, Excel's last (16,384 columns)`,
    ),
  sharedStrings: (kind: "count" | "bytes", size: number) =>
    new IngestFileError(
      "shared_strings_limit",
      file,
      kind === "count"
        ? `the shared-strings table holds more than ${limits.sharedStrings} strings, the limit for a workbook of ${showBytes(fileBytes)} (one per byte of the file, plus 100,000; at most ${16 * 1024 * 1024})`
        : `the shared-strings table holds more than ${showBytes(limits.sharedStringBytes)} of text (${size} strings read), the limit (the largest file accepted, at most 256 MB)`,
    ),
});

export type WorkbookErrors = ReturnType<typeof workbookErrors>;

/** Any other failure: the archive or its XML is broken. */
export function workbookError(error: unknown, file: string): IngestFileError {
  if (error instanceof IngestFileError) return error;
  const message = (error as Error).message;
  // yauzl's words when a part inflates past the size the archive states for it.
  const lying = /too many bytes in the stream/.test(message)
    ? "; a part inflates past the size the archive states for it (a damaged or crafted file)"
    : "";
  return new IngestFileError("unreadable", file, `not a readable Excel workbook (.xlsx): ${message}${lying}`);
}
