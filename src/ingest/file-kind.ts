import { open } from "node:fs/promises";
import { extname } from "node:path";
import { IngestFileError } from "./ingest-file-error.ts";

export type FileKind = "text" | "xlsx";

const WORKBOOK_EXTENSIONS = new Set([".xlsx", ".xlsm", ".xltx", ".xltm"]);
/** A name that says workbook: a ZIP that is not one is refused as such, not read as text. */
export const namedAsWorkbook = (file: string) => WORKBOOK_EXTENSIONS.has(extname(file).toLowerCase());

const ZIP = [0x50, 0x4b, 0x03, 0x04];
const OLE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const startsWith = (head: Uint8Array, magic: number[]) => magic.every((b, i) => head[i] === b);

/**
 * How to read a file, from its first bytes (an extension can lie: "contacts.csv" saved by Excel as a
 * workbook): a ZIP archive is read as an .xlsx workbook, a legacy Office file is refused with what to
 * do, anything else is text. Pure.
 */
export function kindOf(head: Uint8Array, file: string): FileKind {
  if (startsWith(head, ZIP)) return "xlsx";
  if (startsWith(head, OLE)) {
    const ext = extname(file).toLowerCase();
    throw new IngestFileError(
      "legacy_excel",
      file,
      `${ext === ".xls" || ext === ".csv" ? "an Excel 97-2003 workbook (.xls)" : "a legacy Office file"}, which is not read: save it as an Excel workbook (.xlsx) or as CSV UTF-8`,
    );
  }
  return "text";
}

const END_OF_DIRECTORY = Buffer.from([0x50, 0x4b, 0x05, 0x06]);
/** The end record sits in the last 22 bytes, or before a comment of at most 64 KiB. */
const END_SEARCH = 22 + 0xffff;

/**
 * True when a ZIP archive ends with its central directory, as a whole one does; a file cut short
 * (still being copied, a broken download) does not.
 */
export async function zipIsWhole(file: string, size: number): Promise<boolean> {
  const handle = await open(file, "r");
  try {
    const length = Math.min(size, END_SEARCH);
    const tail = Buffer.alloc(length);
    await handle.read(tail, 0, length, size - length);
    return tail.lastIndexOf(END_OF_DIRECTORY) >= 0;
  } finally {
    await handle.close();
  }
}

export async function fileKind(file: string): Promise<FileKind> {
  const handle = await open(file, "r");
  try {
    const head = new Uint8Array(8);
    await handle.read(head, 0, head.length, 0);
    return kindOf(head, file);
  } finally {
    await handle.close();
  }
}
