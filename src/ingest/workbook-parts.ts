import { posix } from "node:path";
import { type CellFormat, cellFormat } from "./cell-formats.ts";
import {
  attribute,
  type InflateBudget,
  type XmlHandlers,
  type XmlLimit,
  xmlParser,
  xmlText,
} from "./xml-stream.ts";
import type { ZipArchive } from "./zip-archive.ts";

/** A sheet as the workbook lists it, in tab order, with the part that holds it. */
export interface SheetEntry {
  name: string;
  state?: string;
  path: string | undefined;
}

/** What a workbook's small parts say: its sheets, where its shared strings are, its cell formats. */
export interface WorkbookModel {
  sheets: SheetEntry[];
  sharedStrings: string | undefined;
  formats: CellFormat[];
  date1904: boolean;
}

export interface PartReading {
  archive: ZipArchive;
  budget: InflateBudget;
  partBytes: number;
  maxRun: number;
  /** The error for a limit met in the named part. */
  refuse: (limit: XmlLimit, part: string) => Error;
}

/** Parses a whole part (absent: nothing happens) through the handlers. */
export async function parsePart(reading: PartReading, path: string, handlers: XmlHandlers): Promise<boolean> {
  const entry = reading.archive.part(path);
  if (!entry) return false;
  const parser = xmlParser(handlers);
  const stream = await reading.archive.open(entry);
  const refuse = (limit: XmlLimit) => reading.refuse(limit, path);
  for await (const text of xmlText(stream, reading.budget, reading.partBytes, reading.maxRun, refuse))
    parser.write(text);
  parser.close();
  return true;
}

const REL_TYPE = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/";

/** Relationship id -> target part, resolved against the part that owns them. */
async function relationships(reading: PartReading, owner: string) {
  const rels = new Map<string, { type: string; path: string }>();
  const folder = posix.dirname(owner);
  const relsPath = posix.join(folder, "_rels", `${posix.basename(owner)}.rels`);
  await parsePart(reading, relsPath, {
    open(name, tag) {
      if (name !== "Relationship") return;
      const id = attribute(tag, "Id");
      const target = attribute(tag, "Target");
      if (id === undefined || target === undefined || attribute(tag, "TargetMode") === "External") return;
      const path = target.startsWith("/") ? target.slice(1) : posix.join(folder, target);
      rels.set(id, { type: (attribute(tag, "Type") ?? "").replace(REL_TYPE, ""), path });
    },
  });
  return rels;
}

/** The workbook's sheets, shared strings' place, cell formats and date system. */
export async function readWorkbookModel(reading: PartReading): Promise<WorkbookModel | undefined> {
  const root = await relationships(reading, "");
  const main =
    [...root.values()].find((r) => r.type === "officeDocument")?.path ??
    (reading.archive.part("xl/workbook.xml") ? "xl/workbook.xml" : undefined);
  if (!main || !reading.archive.part(main)) return undefined;
  const rels = await relationships(reading, main);
  const sheets: SheetEntry[] = [];
  let date1904 = false;
  await parsePart(reading, main, {
    open(name, tag) {
      if (name === "workbookPr") date1904 = ["1", "true"].includes(attribute(tag, "date1904") ?? "");
      if (name !== "sheet") return;
      const id = attribute(tag, "id");
      const state = attribute(tag, "state");
      sheets.push({
        name: attribute(tag, "name") ?? "",
        ...(state ? { state } : {}),
        path: id === undefined ? undefined : rels.get(id)?.path,
      });
    },
  });
  const ofType = (type: string) => [...rels.values()].find((r) => r.type === type)?.path;
  const folder = posix.dirname(main);
  const styles = ofType("styles") ?? posix.join(folder, "styles.xml");
  return {
    sheets,
    sharedStrings: ofType("sharedStrings") ?? posix.join(folder, "sharedStrings.xml"),
    formats: await readFormats(reading, styles),
    date1904,
  };
}

/** Per cell style (a cell's `s`), its number format. */
async function readFormats(reading: PartReading, path: string): Promise<CellFormat[]> {
  const custom = new Map<number, string>();
  const xfs: number[] = [];
  let inCellXfs = false;
  await parsePart(reading, path, {
    open(name, tag) {
      if (name === "numFmt")
        custom.set(Number(attribute(tag, "numFmtId")), attribute(tag, "formatCode") ?? "");
      else if (name === "cellXfs") inCellXfs = true;
      else if (name === "xf" && inCellXfs) xfs.push(Number(attribute(tag, "numFmtId") ?? 0));
    },
    close(name) {
      if (name === "cellXfs") inCellXfs = false;
    },
  });
  return xfs.map((id) => cellFormat(id, custom));
}
