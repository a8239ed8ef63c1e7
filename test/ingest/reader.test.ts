import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ContactFileReader, IngestFileError, type RowOutcome, validateFile } from "../../src/ingest/index.ts";
import { tempDir, writeFixture } from "../support/files.ts";

const dir = tempDir("vcw-ingest-");

async function readAll(path: string, options = {}) {
  const reader = await ContactFileReader.open(path, { defaultCountry: "US", ...options });
  const outcomes: RowOutcome[] = [];
  for await (const outcome of reader) outcomes.push(outcome);
  const t = reader.totals;
  expect(t.total).toBe(t.valid + t.rejected + t.duplicates + t.skipped);
  return { info: reader.info, totals: reader.totals, outcomes };
}

const CONTACTS = "First Name,Last Name,Phone\nJosé,Müller,(415) 555-0101\nZoë,Ångström,415-555-0102\n";
const names = (outcomes: RowOutcome[]) =>
  outcomes.flatMap((o) => (o.kind === "valid" ? [o.contact.first_name] : []));

describe("reading encodings", () => {
  it.each([
    ["utf8", "utf-8", false],
    ["utf8bom", "utf-8", true],
    ["utf16le", "utf-16le", true],
    ["utf16be", "utf-16be", true],
    ["win1252", "windows-1252", false],
  ] as const)("%s", async (written, encoding, bom) => {
    const { info, outcomes } = await readAll(writeFixture(dir, `enc-${written}.csv`, CONTACTS, written));
    expect(info).toMatchObject({ encoding, bom, headers: ["First Name", "Last Name", "Phone"] });
    expect(names(outcomes)).toEqual(["José", "Zoë"]);
    const zoe = outcomes[1]!;
    expect(zoe.kind === "valid" && zoe.contact.last_name).toBe("Ångström");
  });

  it("reads Windows-1252 characters that Latin-1 lacks (€, ’)", async () => {
    const path = writeFixture(
      dir,
      "cp1252.csv",
      "Name,Phone,Notes\nAna,4155550101,costs 5€ – it’s fine\n",
      "win1252",
    );
    const { info, outcomes } = await readAll(path);
    expect(info.encoding).toBe("windows-1252");
    expect(outcomes[0]!.cells[2]).toBe("costs 5€ – it’s fine");
  });
});

describe("reading delimiters, line ends and quoting", () => {
  it.each([
    [",", "\n"],
    [";", "\r\n"],
    ["\t", "\r"],
    ["|", "\n"],
  ])("delimiter %j, line end %j", async (delimiter, linebreak) => {
    const text = [
      ["First Name", "Phone"],
      ["Ana", "4155550101"],
      ["Bob", "4155550102"],
    ]
      .map((r) => r.join(delimiter))
      .join(linebreak);
    const { info, outcomes } = await readAll(
      writeFixture(dir, `d${delimiter.charCodeAt(0)}-${linebreak.length}.csv`, text + linebreak),
    );
    expect(info.delimiter).toBe(delimiter);
    expect(info.linebreak).toBe(linebreak);
    expect(names(outcomes)).toEqual(["Ana", "Bob"]);
    expect(outcomes.map((o) => o.line)).toEqual([2, 3]);
  });

  it("quoted fields with delimiters, doubled quotes and line breaks; physical line numbers", async () => {
    const text =
      'First Name,Phone,Notes\r\n"Lima, Ana",4155550101,"said ""hi"""\r\nBob,4155550102,"two\r\nlines\nand three"\r\nCy,bad,x\r\n';
    const { outcomes } = await readAll(writeFixture(dir, "quoted.csv", text));
    expect(outcomes.map((o) => [o.kind, o.line])).toEqual([
      ["valid", 2],
      ["valid", 3],
      ["rejected", 6],
    ]);
    expect(outcomes[0]!.cells).toEqual(["Lima, Ana", "4155550101", 'said "hi"']);
    expect(outcomes[1]!.cells[2]).toBe("two\r\nlines\nand three");
  });

  it("a single-column file", async () => {
    const { info, totals } = await readAll(writeFixture(dir, "one-column.csv", "Phone\n4155550101\n"), {});
    expect(info.columns.mapped).toEqual({ phone: "Phone" });
    expect(totals).toMatchObject({ total: 1, rejected: 1, codes: { name_or_email_missing: 1 } });
  });
});

describe("rows", () => {
  it("Excel artefacts get their own codes", async () => {
    const text = "Name,Phone\nA,4.15555E+09\nB,4155550101.0\nC,14155550102\nD,447911123456\n";
    const { outcomes } = await readAll(writeFixture(dir, "excel.csv", text));
    expect(outcomes.map((o) => (o.kind === "rejected" ? o.issues[0]!.code : o.kind))).toEqual([
      "phone_excel_scientific",
      "phone_excel_decimal",
      "valid",
      "valid",
    ]);
  });

  it("duplicates keep the first row and point to it; repeated headers and blank lines are skipped", async () => {
    const text = "Name,Phone\nA,4155550101\n\nB,(415) 555-0101\nName,Phone\nC,4155550102\n  ,  \n";
    const { outcomes, totals } = await readAll(writeFixture(dir, "dups.csv", text));
    expect(outcomes.map((o) => o.kind)).toEqual(["valid", "duplicate", "skipped", "valid"]);
    expect(outcomes[1]).toMatchObject({ line: 4, phone: "+14155550101", firstLine: 2 });
    expect(outcomes[2]).toMatchObject({ line: 5, reason: "repeated_header" });
    expect(totals).toMatchObject({ total: 4, valid: 2, duplicates: 1, skipped: 1, blankLines: 2 });
  });

  it("a header-only file reads as zero rows", async () => {
    const { totals } = await readAll(writeFixture(dir, "header-only.csv", "Name,Phone\r\n"));
    expect(totals).toMatchObject({ total: 0, valid: 0 });
  });

  it("data rows are indexed from 0 for resuming", async () => {
    const { outcomes } = await readAll(
      writeFixture(dir, "index.csv", "Name,Phone\nA,4155550101\n\nB,4155550102\n"),
    );
    expect(outcomes.map((o) => o.index)).toEqual([0, 1]);
  });
});

describe("preambles and report footers", () => {
  it("the header is found below a preamble; lines count from the top of the file", async () => {
    const text = "Contacts export\nGenerated for: Dana\n\nName,Phone\nAna,4155550101\n";
    const { info, outcomes } = await readAll(writeFixture(dir, "preamble.csv", text));
    expect(info).toMatchObject({ headerLine: 4, preambleLines: 2, headers: ["Name", "Phone"] });
    expect(outcomes.map((o) => [o.kind, o.line, o.index])).toEqual([["valid", 5, 0]]);
  });

  it("rows without phone after a blank line stay rows when no footer marker follows", async () => {
    const text = "Name,Phone,Email\nAna,4155550101,\n\nBob,,\nCy,,\nDee,4155550102,\n\nEd,,\n";
    const { outcomes, totals } = await readAll(writeFixture(dir, "held.csv", text));
    expect(outcomes.map((o) => [o.kind, o.line, o.index])).toEqual([
      ["valid", 2, 0],
      ["rejected", 4, 1],
      ["rejected", 5, 2],
      ["valid", 6, 3],
      ["rejected", 8, 4],
    ]);
    expect(totals).toMatchObject({ total: 5, footerLines: 0, blankLines: 2 });
  });

  it("a totals line between rows is counted apart, and rows go on after it", async () => {
    const text = "Name,Phone\nAna,4155550101\nTotal: 1,\nBen,4155550102\n";
    const { outcomes, totals } = await readAll(writeFixture(dir, "totals.csv", text));
    expect(outcomes.map((o) => [o.kind, o.line, o.index])).toEqual([
      ["valid", 2, 0],
      ["valid", 4, 1],
    ]);
    expect(totals).toMatchObject({ total: 2, footerLines: 1 });
  });
});

describe("files that cannot be read", () => {
  it.each([
    ["empty.csv", "", "empty", /the file is empty/],
    ["blank.csv", "\n\n  \n", "empty", /no header row/],
    [
      "binary.csv",
      Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00, 0xff, 0x10]),
      "binary",
      /binary, not text \(a NUL byte at offset 4\)/,
    ],
    [
      "utf16-no-bom.csv",
      Buffer.from("Name,Phone\n", "utf16le"),
      "utf16_without_bom",
      /UTF-16 without a byte order mark/,
    ],
    ["no-phone.csv", "Name,Email\nA,a@b.co\n", "no_phone_column", /no phone column found/],
    [
      "long-line.csv",
      `Name,Phone\n${"x".repeat(3000)}\n`,
      "line_too_long",
      /a line is longer than 2000 characters/,
    ],
    [
      "rows.csv",
      "Name,Phone\nA,4155550101\nB,4155550102\nC,4155550103\n",
      "too_many_rows",
      /more than 2 data rows/,
    ],
  ])("%s", async (name, content, code, message) => {
    const path = writeFixture(dir, name, content);
    const error = await readAll(path, { maxLineChars: 2000, maxRows: 2 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IngestFileError);
    expect(error).toMatchObject({ code });
    expect((error as Error).message).toContain(path);
    expect((error as Error).message).toMatch(message);
  });

  it("a file over the size limit, and a missing file", async () => {
    const path = writeFixture(dir, "big.csv", "Name,Phone\nA,4155550101\n");
    await expect(readAll(path, { maxFileBytes: 10 })).rejects.toMatchObject({ code: "too_large" });
    await expect(readAll(`${dir}/missing.csv`)).rejects.toMatchObject({ code: "not_found" });
  });

  it("random binary garbage without NUL bytes fails clearly, not with a crash", async () => {
    const garbage = Buffer.from(Array.from({ length: 5000 }, (_, i) => 1 + ((i * 7919) % 255)));
    const error = await readAll(writeFixture(dir, "garbage.csv", garbage)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IngestFileError);
  });

  it("a quoted field of 200,000 lines is refused at once (within 2 s), naming the line it opens on (issue 43)", async () => {
    // 16 MB: papaparse read it again from its start at every chunk (1.7 s, 335 MB), then the row was
    // rejected; 1.1 million lines took 33 s and 1.3 GB.
    const field = `${"x".repeat(79)}\n`.repeat(200_000);
    const path = writeFixture(
      dir,
      "open-quote.csv",
      `Name,Phone,Notes\nA,4155550101,ok\nB,4155550102,"${field}"\n`,
    );
    const started = performance.now();
    const error = await readAll(path).catch((e: unknown) => e);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(error).toBeInstanceOf(IngestFileError);
    expect(error).toMatchObject({ code: "field_too_long" });
    expect((error as Error).message).toMatch(
      /: line 3: a quoted field runs on past 1000000 characters \(to line 12502\) without its closing quote/,
    );
  });

  it("quotes that close nothing before long runs of spaces are refused within 2 s, not read in time growing as the square (issue 43)", async () => {
    // 800,000 characters on one line: under the limit; papaparse alone takes about half a minute.
    const notes = `${'a"b'.repeat(100_000)}${" ".repeat(500_000)},x`;
    const path = writeFixture(dir, "broken-quotes.csv", `Name,Phone,Notes\nA,4155550101,"${notes}"\n`);
    const started = performance.now();
    const error = await readAll(path).catch((e: unknown) => e);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(error).toMatchObject({ code: "broken_quotes" });
    expect((error as Error).message).toContain(": line 2: quotes inside a quoted field close nothing");
  });

  it("quoted fields of many lines under the limit are read, and the lines below them numbered right", async () => {
    const notes = "line\n".repeat(1_000);
    const text = `Name,Phone,Notes\r\nA,4155550101,"${notes}"\r\nB,4155550102,"say ""hi"""\r\nC,4155550103,x\r\n`;
    const { outcomes } = await readAll(writeFixture(dir, "many-lines.csv", text));
    expect(outcomes.map((o) => [o.kind, o.line])).toEqual([
      ["valid", 2],
      ["valid", 1_003],
      ["valid", 1_004],
    ]);
  });

  it("a very long but allowed line is read", async () => {
    const notes = "n".repeat(50_000);
    const { outcomes } = await readAll(
      writeFixture(dir, "long-ok.csv", `Name,Phone,Notes\nA,4155550101,${notes}\n`),
      { maxFieldChars: 60_000 },
    );
    expect(outcomes[0]).toMatchObject({ kind: "valid", contact: { description: notes } });
  });
});

describe("error report", () => {
  it("original columns plus row_number, field, value, error_code, message; formulas escaped in the report only", async () => {
    const text = "Name,Phone,Notes\n=HYPERLINK(1),4155550101,ok\n@risk,12,x\n+A,4155550101,dup\n";
    const path = writeFixture(dir, "report.csv", text);
    const summary = await validateFile(path, { defaultCountry: "US" });
    expect(summary).toMatchObject({
      total: 3,
      valid: 1,
      rejected: 1,
      duplicates: 1,
      errorsFile: `${path}.errors.csv`,
    });
    const report = readFileSync(`${path}.errors.csv`, "utf8");
    expect(report.startsWith("\uFEFFName,Phone,Notes,row_number,field,value,error_code,message\r\n")).toBe(
      true,
    );
    const lines = report.trim().split("\r\n").slice(1);
    expect(lines[0]).toBe(
      `'@risk,12,x,3,phone,12,phone_too_short,"""12"" is too short for a phone number of US"`,
    );
    expect(lines[1]).toBe(
      "'+A,4155550101,dup,4,phone,'+14155550101,duplicate,\"same phone as row 2, which is kept\"",
    );

    // The data itself is never escaped.
    const reader = await ContactFileReader.open(path, { defaultCountry: "US" });
    for await (const outcome of reader) {
      if (outcome.kind === "valid") expect(outcome.contact.first_name).toBe("=HYPERLINK(1)");
    }
  });

  it("no report is left behind for a clean file", async () => {
    const summary = await validateFile(writeFixture(dir, "clean.csv", "Name,Phone\nA,4155550101\n"), {
      defaultCountry: "US",
    });
    expect(summary.errorsFile).toBeUndefined();
  });
});
