/**
 * .xlsx validation beside an exceljs-only streaming read of the same workbook, in the same run: the
 * same contacts as the CSV benchmark, written as Excel writes them (shared strings, after the sheet).
 */
import { existsSync, statSync } from "node:fs";
import ExcelJS from "exceljs";
import { CONTACT_HEADERS, contactRows } from "./contacts-csv.ts";
import { fmt, mb, table } from "./lib.ts";

export async function writeContactsXlsx(path: string, rows: number, seed = 1): Promise<void> {
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({
    filename: path,
    useSharedStrings: true,
    useStyles: false,
  });
  const sheet = book.addWorksheet("Contacts");
  sheet.addRow(CONTACT_HEADERS).commit();
  for (const row of contactRows(rows, seed)) sheet.addRow(row).commit();
  sheet.commit();
  await book.commit();
}

export interface Pass {
  rows: number;
  ms: number;
  maxRssMb: number;
}

export async function runXlsx(
  data: string,
  sizes: number[],
  measure: (mode: "validate" | "parse-xlsx", file: string) => Pass,
): Promise<void> {
  const rows = [];
  for (const n of sizes) {
    const file = `${data}/contacts-${n}.xlsx`;
    if (!existsSync(file)) await writeContactsXlsx(file, n);
    const parse = measure("parse-xlsx", file);
    const ours = measure("validate", file);
    const rate = (p: Pass) => p.rows / (p.ms / 1000);
    rows.push({
      rows: fmt(n),
      file: mb(statSync(file).size),
      "exceljs only rows/s": fmt(rate(parse)),
      "validated rows/s": fmt(rate(ours)),
      "ours / exceljs-only": fmt(rate(ours) / rate(parse), 3),
      "exceljs-only peak RSS": `${fmt(parse.maxRssMb)} MB`,
      "validated peak RSS": `${fmt(ours.maxRssMb)} MB`,
    });
  }
  console.log("\n.xlsx validation (compiled JS, one process per pass; shared strings held in memory)");
  table(rows);
}
