import type { IngestOptions } from "./options.ts";

/**
 * What reading one .xlsx workbook may cost, from the file's size and the job's limits. Pure.
 * A workbook is a ZIP archive: its parts inflate, ~5-15 times for real exports, up to ~1000 times
 * for a crafted one (a zip bomb), so every cost is bounded before it is paid.
 */
export interface WorkbookLimits {
  /** Bytes all parts read may inflate to, together. */
  inflateBytes: number;
  /** Bytes one small part (workbook.xml, its relationships, styles.xml) may inflate to. */
  partBytes: number;
  /** Strings the shared-strings table may hold, and their UTF-8 bytes together. */
  sharedStrings: number;
  sharedStringBytes: number;
  /** Characters of a cell's text, of a row's texts together, and of any run of XML between two tags. */
  textChars: number;
}

const MiB = 1024 * 1024;
/** Real sheets inflate 5-15x; 100x leaves room for sheets of blank styled rows. */
export const INFLATE_RATIO = 100;
/** A small file may inflate this much whatever its ratio: it is read in well under a second. */
export const INFLATE_FLOOR = 64 * MiB;
/** An .xlsx holds the text of a CSV file of the same rows in about 8 times its bytes of XML. */
export const XML_PER_CSV_BYTE = 8;

export function workbookLimits(
  fileBytes: number,
  options: Pick<IngestOptions, "maxFileBytes" | "maxLineChars">,
): WorkbookLimits {
  const inflateBytes = Math.min(
    XML_PER_CSV_BYTE * options.maxFileBytes,
    Math.max(INFLATE_FLOOR, INFLATE_RATIO * fileBytes),
  );
  return {
    inflateBytes,
    partBytes: Math.min(inflateBytes, 16 * MiB),
    // A distinct string costs at least a byte of the compressed file; 100,000 more for small files.
    sharedStrings: Math.min(fileBytes + 100_000, 16 * MiB),
    // Text of a CSV file could be no longer than maxFileBytes; 256 MiB bounds the memory it takes.
    sharedStringBytes: Math.min(options.maxFileBytes, 256 * MiB),
    textChars: options.maxLineChars,
  };
}

/** "1.5 MB", for messages. */
export function showBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < MiB) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 * MiB) return `${(bytes / MiB).toFixed(1)} MB`;
  return `${(bytes / 1024 / MiB).toFixed(2)} GB`;
}
