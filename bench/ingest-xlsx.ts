/** The benchmark's contacts as an .xlsx workbook, written as Excel writes one (shared strings after the sheet). */
import ExcelJS from "exceljs";
import { CONTACT_HEADERS, contactRows } from "./contacts-csv.ts";

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
