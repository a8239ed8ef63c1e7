import type { Entry } from "yauzl";
import { zipIsWhole } from "./file-kind.ts";
import { IngestFileError } from "./ingest-file-error.ts";
import type { IngestOptions } from "./options.ts";
import type { RowSource } from "./row-source.ts";
import type { SharedStrings } from "./shared-strings.ts";
import { readSharedStrings } from "./shared-strings-part.ts";
import { type SheetRow, sheetRows } from "./sheet-rows.ts";
import { type WorkbookErrors, workbookError, workbookErrors } from "./workbook-errors.ts";
import { type WorkbookLimits, workbookLimits } from "./workbook-limits.ts";
import {
  type PartReading,
  readWorkbookModel,
  type SheetEntry,
  type WorkbookModel,
} from "./workbook-parts.ts";
import { InflateBudget, type XmlLimit, xmlText } from "./xml-stream.ts";
import { ZipArchive } from "./zip-archive.ts";

export { cellText } from "./xlsx-cell.ts";

export interface OpenedSheet {
  source: RowSource;
  sheet: string;
  sheets: string[];
}

/** Which sheet to read: by name (any case), else by position from 1; by default the first visible one. */
export function chooseSheet(
  sheets: readonly Pick<SheetEntry, "name" | "state">[],
  wanted: string | number | undefined,
): string | undefined {
  if (wanted === undefined)
    return (sheets.find((s) => (s.state ?? "visible") === "visible") ?? sheets[0])?.name;
  const text = String(wanted).trim();
  const byName = sheets.find((s) => s.name.toLowerCase() === text.toLowerCase());
  if (byName) return byName.name;
  return /^\d+$/.test(text) ? sheets[Number(text) - 1]?.name : undefined;
}

type WorkbookOptions = Pick<IngestOptions, "maxFileBytes" | "maxLineChars" | "sheet">;

/**
 * One sheet of an .xlsx workbook as a stream of rows. The archive is read at random (ZipArchive):
 * the workbook's small parts, then the shared strings (held packed in memory), then the chosen
 * sheet, streamed; other sheets are never inflated and nothing is written to disk. What the
 * workbook may inflate to, its shared strings and every text are bounded (WorkbookLimits).
 */
export async function openXlsx(file: string, size: number, options: WorkbookOptions): Promise<OpenedSheet> {
  if (!(await zipIsWhole(file, size))) {
    throw new IngestFileError(
      "unreadable",
      file,
      "not a readable Excel workbook (.xlsx): the archive is cut short (no directory at its end); was it still being copied?",
    );
  }
  const archive = await ZipArchive.open(file).catch((error: unknown) => {
    throw workbookError(error, file);
  });
  try {
    return await openSheet(archive, file, size, options);
  } catch (error) {
    archive.close();
    throw workbookError(error, file);
  }
}

async function openSheet(
  archive: ZipArchive,
  file: string,
  size: number,
  options: WorkbookOptions,
): Promise<OpenedSheet> {
  const limits = workbookLimits(size, options);
  const errors = workbookErrors(file, size, limits);
  const budget = new InflateBudget(limits.inflateBytes);
  const reading: PartReading = {
    archive,
    budget,
    partBytes: limits.partBytes,
    maxRun: limits.textChars,
    refuse: (limit, part) => partError(errors, limit, `the part ${part}`),
  };
  const model = await readWorkbookModel(reading);
  if (!model || model.sheets.length === 0)
    throw new IngestFileError(
      "not_a_workbook",
      file,
      "a ZIP archive with no Excel worksheet: save the contacts as an Excel workbook (.xlsx) or as CSV",
    );
  const sheets = model.sheets.map((s) => s.name);
  const name = chooseSheet(model.sheets, options.sheet);
  const chosen = model.sheets.find((s) => s.name === name);
  if (!chosen)
    throw new IngestFileError(
      "sheet_not_found",
      file,
      `the workbook has no sheet ${JSON.stringify(options.sheet)} (sheets: ${sheets.map((s) => `"${s}"`).join(", ")})`,
    );
  const entry = chosen.path === undefined ? undefined : archive.part(chosen.path);
  if (!entry) throw new Error(`the sheet "${chosen.name}" is listed but its part is missing`);
  // Sizes the archive states: a bomb that says what it is refused before anything is inflated.
  const stringsEntry = model.sharedStrings === undefined ? undefined : archive.part(model.sharedStrings);
  if (entry.uncompressedSize + (stringsEntry?.uncompressedSize ?? 0) > budget.limit - budget.used)
    throw errors.inflate(
      `the sheet "${chosen.name}" with the shared strings (as the archive states their sizes)`,
    );
  const strings = await readSharedStrings(reading, model.sharedStrings, limits, (limit, read) =>
    limit === "text"
      ? errors.text(`the shared string ${read.size + 1}`)
      : errors.sharedStrings(limit, read.size),
  );
  const source = await sheetSource(archive, entry, chosen.name, file, {
    strings,
    formats: model.formats,
    date1904: model.date1904,
    budget,
    limits,
    errors,
  });
  return { source, sheet: chosen.name, sheets };
}

interface SheetReading {
  strings: SharedStrings;
  formats: WorkbookModel["formats"];
  date1904: boolean;
  budget: InflateBudget;
  limits: WorkbookLimits;
  errors: WorkbookErrors;
}

/** The chosen sheet's rows, streamed from its part; reading stops, and the archive closes, on close(). */
async function sheetSource(
  archive: ZipArchive,
  entry: Entry,
  name: string,
  file: string,
  r: SheetReading,
): Promise<RowSource> {
  const { errors, limits, budget } = r;
  const where = (row: number) => `the sheet "${name}", row ${row}`;
  let line = 0;
  const sheetSoFar = () => `the sheet "${name}"${line ? ` after row ${line}` : ""}`;
  const refuse = (limit: XmlLimit) => partError(errors, limit, sheetSoFar());
  const xml = xmlText(await archive.open(entry), budget, budget.limit, limits.textChars, refuse);
  const iterator: AsyncGenerator<SheetRow> = sheetRows(xml, {
    strings: r.strings,
    formats: r.formats,
    date1904: r.date1904,
    maxChars: limits.textChars,
    refuse: (limit, row) => (limit === "text" ? errors.text(where(row)) : errors.columns(where(row))),
  });
  const close = () => {
    iterator.return(undefined).catch(() => undefined);
    archive.close();
  };
  const rows: AsyncIterator<string[]> = {
    async next() {
      let next: IteratorResult<SheetRow>;
      try {
        next = await iterator.next();
      } catch (error) {
        close();
        throw workbookError(error, file);
      }
      if (next.done) {
        close();
        return { done: true, value: undefined };
      }
      line = next.value.number;
      return { done: false, value: next.value.cells };
    },
  };
  return { rows, lineOf: () => line, close };
}

function partError(errors: WorkbookErrors, limit: XmlLimit, where: string): IngestFileError {
  if (limit === "inflate") return errors.inflate(where);
  if (limit === "text") return errors.text(where);
  return errors.part(where);
}
