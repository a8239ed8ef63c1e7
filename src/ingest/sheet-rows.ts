import type { SaxesTagPlain } from "saxes";
import { type CellFormat, excelDate } from "./cell-formats.ts";
import type { SharedStrings } from "./shared-strings.ts";
import { cellText } from "./xlsx-cell.ts";
import { attribute, xmlParser } from "./xml-stream.ts";

/** Excel's last column, XFD. */
export const MAX_COLUMNS = 16_384;

export interface SheetRow {
  number: number;
  cells: string[];
}

export interface SheetContext {
  strings: SharedStrings;
  formats: readonly CellFormat[];
  date1904: boolean;
  /** Characters a cell's text, and a row's texts together, may have. */
  maxChars: number;
  /** The error for a limit met at a row. */
  refuse: (limit: "text" | "columns", row: number) => Error;
}

/** "XFD12" -> 16383 (from 0); undefined for no letters. */
export function columnIndex(ref: string): number | undefined {
  let column = 0;
  let i = 0;
  for (; i < ref.length && i < 4; i++) {
    const code = ref.charCodeAt(i) | 0x20; // lower case
    if (code < 0x61 || code > 0x7a) break;
    column = column * 26 + (code - 0x60);
  }
  return i === 0 ? undefined : column - 1;
}

/**
 * The rows of a worksheet part, from its XML text chunks, as cell texts the way a CSV export writes
 * them: shared strings looked up, numbers in full, dates as ISO dates, formulas as their results.
 * A cell's text, a row's texts together and a row's columns are bounded.
 */
export async function* sheetRows(
  xml: AsyncIterable<string>,
  context: SheetContext,
): AsyncGenerator<SheetRow> {
  const { strings, formats, date1904, maxChars, refuse } = context;
  const ready: SheetRow[] = [];
  let row: SheetRow | undefined;
  let rowChars = 0;
  let lastRow = 0;
  let column = 0;
  let type = "n";
  let style = 0;
  let value = "";
  let capturing = false;
  let phonetic = 0;

  const open = (name: string, tag: SaxesTagPlain) => {
    if (name === "row") {
      const r = Number(attribute(tag, "r"));
      lastRow = Number.isInteger(r) && r > 0 ? r : lastRow + 1;
      row = { number: lastRow, cells: [] };
      rowChars = 0;
      column = 0;
    } else if (name === "c") {
      const ref = attribute(tag, "r");
      column = (ref === undefined ? undefined : columnIndex(ref)) ?? column;
      if (column >= MAX_COLUMNS) throw refuse("columns", lastRow);
      type = attribute(tag, "t") ?? "n";
      style = Number(attribute(tag, "s") ?? 0);
      value = "";
    } else if (name === "v" || (name === "t" && phonetic === 0)) capturing = true;
    else if (name === "rPh") phonetic += 1;
  };
  const close = (name: string) => {
    if (name === "v" || name === "t") capturing = false;
    else if (name === "rPh") phonetic -= 1;
    else if (name === "c" && row) {
      const text = cellValue(type, value, formats[style], strings, date1904);
      rowChars += text.length;
      if (rowChars > maxChars) throw refuse("text", lastRow);
      // An empty cell (styled, say) is no cell, as in a CSV export's trailing commas it would be.
      // Filled in order, never with holes: a row touching XFD stays a packed array.
      const cells = row.cells;
      if (text !== "") {
        while (cells.length < column) cells.push("");
        if (column === cells.length) cells.push(text);
        else cells[column] = text;
      }
      column++;
    } else if (name === "row" && row) {
      ready.push(row);
      row = undefined;
    }
  };
  const text = (t: string) => {
    if (!capturing) return;
    value += t;
    if (value.length > maxChars) throw refuse("text", lastRow);
  };
  const parser = xmlParser({ open, close, text });
  for await (const chunk of xml) {
    parser.write(chunk);
    if (ready.length > 0) yield* ready.splice(0);
  }
  parser.close();
  yield* ready.splice(0);
}

/** A cell's text from its type (`t`), its raw value and its number format. */
export function cellValue(
  type: string,
  raw: string,
  format: CellFormat | undefined,
  strings: SharedStrings,
  date1904: boolean,
): string {
  switch (type) {
    case "s":
      return raw === "" ? "" : strings.get(Number(raw));
    case "b":
      return raw === "1" || raw === "true" ? "TRUE" : "FALSE";
    case "str":
    case "inlineStr":
    case "e":
      return raw;
    case "d": {
      const date = new Date(raw);
      return Number.isNaN(date.getTime()) ? raw : cellText(date);
    }
    default: {
      if (raw === "") return "";
      const number = Number(raw);
      if (Number.isNaN(number)) return raw;
      if (format?.date) return cellText(excelDate(number, date1904) ?? number);
      return cellText(number, format?.code);
    }
  }
}
