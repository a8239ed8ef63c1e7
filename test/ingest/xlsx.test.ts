import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { crc32 } from "node:zlib";
import ExcelJS from "exceljs";
import { beforeAll, describe, expect, it } from "vitest";
import {
  ContactFileReader,
  IngestFileError,
  type IngestOptions,
  type RowOutcome,
} from "../../src/ingest/index.ts";
import { cellText, chooseSheet } from "../../src/ingest/xlsx-source.ts";
import { tempDir } from "../support/files.ts";

const dir = tempDir("vcw-xlsx-");
const leads = join(dir, "leads.xlsx");

/** A workbook as an operator saves it from Excel: a hidden sheet first, a title above the header. */
async function writeLeads(path: string) {
  const book = new ExcelJS.Workbook();
  book.addWorksheet("Read me", { state: "hidden" }).addRow(["Internal notes"]);
  const sheet = book.addWorksheet("Leads");
  sheet.addRow(["Leads – May 2024"]);
  sheet.addRow([]);
  sheet.addRow(["Name", "Mobile Phone Number", "Office Phone", "Email", "Signed up"]);
  sheet.addRow(["Ana Lima", 14155550141, "", "ana@example.com", new Date("2024-05-02T00:00:00Z")]); // 4
  sheet.addRow(["Ben Okafor", "+44 20 7946 0031", "", "ben@example.com"]); // 5
  sheet.addRow(["Cy Park", "4.47911E+11", 4155550143, "cy@example.com"]); // 6: a text cell Excel mangled
  sheet.addRow([{ richText: [{ text: "Dee " }, { text: "Ray" }] }, "", 4155550144, "dee@example.com"]); // 7
  sheet.addRow(["Eli Ross", { formula: '"+1 415 555 "&"0145"', result: "+1 415 555 0145" }]); // 8
  sheet.addRow(["Fay Stone", 612345678, "", "fay@example.com"]); // 9: lost its leading 0
  sheet.addRow(["Gia Conti", 612345679, "", "gia@example.com"]).getCell(2).numFmt = "0000000000"; // 10
  sheet.addRow([]);
  sheet.addRow(["Total", { formula: "COUNTA(B4:B10)", result: 7 }]); // 12
  book.addWorksheet("Archive").addRow(["Name", "Phone"]).commit();
  book.getWorksheet("Archive")!.addRow(["Gus Hart", "+1 415 555 0146"]);
  await book.xlsx.writeFile(path);
}

async function read(path: string, options: Partial<IngestOptions> = {}) {
  const reader = await ContactFileReader.open(path, { defaultCountry: "US", ...options });
  const outcomes: RowOutcome[] = [];
  for await (const outcome of reader) outcomes.push(outcome);
  return { info: reader.info, totals: reader.totals, outcomes };
}

const rows = (outcomes: RowOutcome[]) =>
  outcomes.map((o) =>
    o.kind === "valid"
      ? `${o.line} ${o.phone} from ${o.phoneColumn}`
      : `${o.line} ${o.kind} ${o.kind === "rejected" ? o.issues.map((i) => i.code).join(", ") : ""}`.trim(),
  );

beforeAll(() => writeLeads(leads));

describe(".xlsx workbooks", () => {
  it("the first visible sheet, its header under a title, numeric phones as in CSV, sheet row numbers", async () => {
    const { info, outcomes, totals } = await read(leads);
    expect(info).toMatchObject({
      format: "xlsx",
      sheet: "Leads",
      sheets: ["Read me", "Leads", "Archive"],
      headerLine: 3,
      preambleLines: 1,
      headers: ["Name", "Mobile Phone Number", "Office Phone", "Email", "Signed up"],
    });
    expect(rows(outcomes)).toEqual([
      "4 +14155550141 from Mobile Phone Number", // a number cell: the + came back
      "5 +442079460031 from Mobile Phone Number",
      "6 +14155550143 from Office Phone", // the mobile is in scientific notation: refused, office used
      "7 +14155550144 from Office Phone",
      "8 +14155550145 from Mobile Phone Number", // a formula's result
      "9 rejected phone_too_short",
      "10 rejected phone_invalid_for_country", // 0612345679: an Italian number, not a US one
    ]);
    const cy = outcomes[2]!;
    expect(cy.kind === "valid" && cy.warnings[0]).toMatchObject({
      code: "phone_fallback",
      value: "4.47911E+11",
    });
    expect(outcomes[3]).toMatchObject({ contact: { first_name: "Dee", last_name: "Ray" } });
    expect(outcomes[0]!.cells[4]).toBe("2024-05-02");
    expect(outcomes[6]!.cells[1]).toBe("0612345679");
    expect(totals).toMatchObject({ total: 7, valid: 5, rejected: 2, footerLines: 1 });
  });

  it("a leading zero: kept by a 0000000000 format, or said lost as in CSV", async () => {
    const { outcomes } = await read(leads, { defaultCountry: "IT" });
    const fay = outcomes.find((o) => o.line === 9);
    expect(fay?.kind === "rejected" && fay.issues[0]).toMatchObject({ code: "phone_lost_leading_zero" });
    expect(outcomes.find((o) => o.line === 10)).toMatchObject({ kind: "valid", phone: "+390612345679" });
  });

  it.each([["archive"], ["3"], [3]])("a chosen sheet: %j", async (sheet) => {
    const { info, outcomes } = await read(leads, { sheet });
    expect(info.sheet).toBe("Archive");
    expect(rows(outcomes)).toEqual(["2 +14155550146 from Phone"]);
  });

  it("a sheet that is not there is named with the ones that are", async () => {
    const error = await read(leads, { sheet: "Contacts" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IngestFileError);
    expect(error).toMatchObject({ code: "sheet_not_found" });
    expect((error as Error).message).toBe(
      `${leads}: the workbook has no sheet "Contacts" (sheets: "Read me", "Leads", "Archive")`,
    );
  });

  it("leaves no temporary file behind, whether the sheet is read to its end or not there", async () => {
    const ours = () => readdirSync(tmpdir()).filter((f) => f.startsWith(`tmp-${process.pid}-`));
    await read(leads);
    await read(leads, { sheet: "Nope" }).catch(() => undefined);
    const reader = await ContactFileReader.open(leads, { defaultCountry: "US" });
    for await (const _ of reader) break; // stopped after one row
    for (let i = 0; i < 50 && ours().length > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(ours()).toEqual([]);
  });

  it("a large workbook written by a streaming writer (shared strings after the sheet) reads whole", async () => {
    const path = join(dir, "big.xlsx");
    const writer = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useSharedStrings: true });
    const sheet = writer.addWorksheet("Contacts");
    sheet.addRow(["First Name", "Phone"]).commit();
    for (let i = 0; i < 20_000; i++)
      sheet
        .addRow([`Name${i}`, `+1 415 ${200 + Math.floor(i / 10_000)} ${String(i % 10_000).padStart(4, "0")}`])
        .commit();
    sheet.commit();
    await writer.commit();
    const { totals, outcomes } = await read(path);
    expect(totals).toMatchObject({ total: 20_000, valid: 20_000 });
    expect(outcomes.at(-1)).toMatchObject({ line: 20_001, index: 19_999 });
  });
});

/** A ZIP archive of stored (uncompressed) files. */
function zip(files: Record<string, string>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of Object.entries(files)) {
    const data = Buffer.from(text);
    // Local header (30 bytes) and central directory entry (46 bytes) share version, CRC, sizes, name length.
    const entry = (signature: number, size: number, at: number) => {
      const b = Buffer.alloc(size);
      b.writeUInt32LE(signature, 0);
      b.writeUInt16LE(20, 4);
      b.writeUInt16LE(20, 6);
      b.writeUInt32LE(crc32(data), at);
      b.writeUInt32LE(data.length, at + 4);
      b.writeUInt32LE(data.length, at + 8);
      b.writeUInt16LE(name.length, at + 12);
      return b;
    };
    const local = entry(0x04034b50, 30, 14);
    local.writeUInt16LE(0, 6);
    const central = entry(0x02014b50, 46, 16);
    central.writeUInt32LE(offset, 42);
    locals.push(local, Buffer.from(name), data);
    centrals.push(central, Buffer.from(name));
    offset += local.length + name.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(centrals.length / 2, 8);
  end.writeUInt16LE(centrals.length / 2, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

describe("files that look like spreadsheets but cannot be read", () => {
  it.each([
    ["notes.xlsx", () => zip({ "notes.txt": "not a workbook" }), "not_a_workbook", /no Excel worksheet/],
    [
      "old.xls",
      () => Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0]),
      "legacy_excel",
      /Excel 97-2003 workbook \(\.xls\).*save it as an Excel workbook \(\.xlsx\) or as CSV UTF-8/,
    ],
    [
      "cut.xlsx",
      () => readFileSync(leads).subarray(0, 2000),
      "unreadable",
      /not a readable Excel workbook \(\.xlsx\): the archive is cut short/,
    ],
  ])("%s", async (name, content, code, message) => {
    const path = join(dir, name);
    writeFileSync(path, content());
    const error = await read(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IngestFileError);
    expect(error).toMatchObject({ code });
    expect((error as Error).message).toContain(path);
    expect((error as Error).message).toMatch(message);
  });

  it("a workbook named .csv is read as a workbook", async () => {
    const path = join(dir, "leads-renamed.csv");
    writeFileSync(path, readFileSync(leads));
    const { info, totals } = await read(path);
    expect(info).toMatchObject({ format: "xlsx", sheet: "Leads" });
    expect(totals).toMatchObject({ total: 7, valid: 5 });
  });

  it("a ZIP named .csv that is no workbook is refused as binary", async () => {
    const path = join(dir, "archive.csv");
    writeFileSync(path, zip({ "a.txt": "x\u0000y" }));
    await expect(read(path)).rejects.toMatchObject({ code: "binary" });
  });
});

describe("cell values", () => {
  it.each([
    [14155550123, "14155550123"],
    [1e21, "1e+21"],
    [4155550123.5, "4155550123.5"],
    [true, "TRUE"],
    [{ richText: [{ text: "a" }, { text: "b" }] }, "ab"],
    [{ formula: "A1", result: 5 }, "5"],
    [{ sharedFormula: "A1", result: "x" }, "x"],
    [{ error: "#N/A" }, "#N/A"],
    [{ text: "Ana", hyperlink: "mailto:a@example.com" }, "Ana"],
    [new Date("2024-05-02T09:30:00Z"), "2024-05-02T09:30:00.000Z"],
    [null, ""],
  ])("%j -> %j", (value, text) => {
    expect(cellText(value)).toBe(text);
  });

  it("a zero-padded number format keeps its zeros", () => {
    expect(cellText(612345678, "0000000000")).toBe("0612345678");
    expect(cellText(612345678, "General")).toBe("612345678");
    expect(cellText(6.5, "0000")).toBe("6.5");
  });

  it("sheets: by name in any case, by position, the first visible by default", () => {
    const sheets = [{ name: "Hidden", state: "hidden" }, { name: "Leads" }, { name: "2024" }];
    expect(chooseSheet(sheets, undefined)).toBe("Leads");
    expect(chooseSheet(sheets, "LEADS")).toBe("Leads");
    expect(chooseSheet(sheets, 1)).toBe("Hidden");
    expect(chooseSheet(sheets, "2024")).toBe("2024"); // a name before a position
    expect(chooseSheet(sheets, "9")).toBeUndefined();
  });
});
