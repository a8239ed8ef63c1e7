import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ContactFileReader, type IngestOptions, validateFile } from "../../src/ingest/index.ts";
import { tempDir } from "../support/files.ts";
import {
  badRows,
  longText,
  sharedStringsBomb,
  whitespaceBomb,
  widestRows,
  zipBomb,
} from "../support/xlsx-bombs.ts";

const dir = tempDir("vcw-bombs-");
const MB = 1024 * 1024;

async function read(path: string, options: Partial<IngestOptions> = {}) {
  const reader = await ContactFileReader.open(path, { defaultCountry: "US", ...options });
  let rows = 0;
  for await (const _ of reader) rows++;
  return { rows, totals: reader.totals, info: reader.info };
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error("expected the file to be refused");
    },
    (e: unknown) => e as Error & { code: string },
  );

// A private temporary folder, to see that nothing is written to it.
let privateTmp: string;
const savedTmp = process.env.TMPDIR;
beforeEach(() => {
  privateTmp = mkdtempSync(join(tmpdir(), "vcw-private-tmp-"));
  process.env.TMPDIR = privateTmp;
});
afterEach(() => {
  if (savedTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmp;
});

async function bomb(name: string, bytes: Promise<Buffer>): Promise<string> {
  const path = join(dir, name);
  writeFileSync(path, await bytes);
  return path;
}

describe("item 8: a zip bomb", () => {
  it("in the sheet read: refused before it is inflated, naming the limit and the sheet; nothing on disk", async () => {
    const path = await bomb("bomb.xlsx", zipBomb(100 * MB));
    const size = statSync(path).size;
    expect(size).toBeLessThan(500_000); // ~300 times smaller than what it inflates to
    const started = performance.now();
    const error = await failure(read(path, { maxFileBytes: 4 * MB }));
    expect(error.code).toBe("inflate_limit");
    expect(error.message).toContain(`${path}: the sheet "Contacts"`);
    expect(error.message).toMatch(/inflates past 32\.0 MB, the most this .* workbook may inflate to/);
    expect(error.message).toMatch(/at most 8 times the largest file accepted/);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(readdirSync(privateTmp)).toEqual([]);
  });

  it("in a sheet that is not read: never inflated, the sheet read is read whole", async () => {
    const path = await bomb("bomb-unread.xlsx", zipBomb(150 * MB, "unread"));
    const started = performance.now();
    const { info, totals } = await read(path);
    expect(info.sheets).toEqual(["Contacts", "Archive"]);
    expect(totals).toMatchObject({ total: 1, valid: 1 });
    expect(performance.now() - started).toBeLessThan(5_000); // inflating 150 MB takes longer
    expect(readdirSync(privateTmp)).toEqual([]);
  });

  it("under the 64 MB floor, yet past 8 times maxFileBytes, is refused too", async () => {
    const path = await bomb("bomb-small.xlsx", zipBomb(6 * MB));
    const error = await failure(read(path, { maxFileBytes: 512 * 1024 }));
    expect(error.code).toBe("inflate_limit");
    expect(error.message).toContain("inflates past 4.0 MB");
  });

  it("that lies about its size is stopped as it inflates, past the size it states", async () => {
    const path = await bomb(
      "bomb-lying.xlsx",
      zipBomb(200 * MB, "read", { "xl/worksheets/sheet1.xml": 1000 }),
    );
    const started = performance.now();
    const error = await failure(read(path));
    expect(error.code).toBe("unreadable");
    expect(error.message).toMatch(
      /not a readable Excel workbook \(\.xlsx\): too many bytes in the stream.*; a part inflates past the size the archive states for it/,
    );
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(readdirSync(privateTmp)).toEqual([]);
  });
});

describe("item 9: the shared-strings table", () => {
  it("its count is bounded by the file's size", async () => {
    const path = await bomb("strings-count.xlsx", sharedStringsBomb(2_000_000));
    const size = statSync(path).size;
    const error = await failure(read(path));
    expect(error.code).toBe("shared_strings_limit");
    expect(error.message).toContain(`holds more than ${size + 100_000} strings, the limit for a workbook of`);
  });

  it("its bytes are bounded by the largest file accepted", async () => {
    const path = await bomb("strings-bytes.xlsx", sharedStringsBomb(25_000, "0123456789"));
    const error = await failure(read(path, { maxFileBytes: 100_000 }));
    expect(error.code).toBe("shared_strings_limit");
    expect(error.message).toMatch(/holds more than 97\.7 KB of text \(\d+ strings read\), the limit/);
  });

  it("a table under the limits is read", async () => {
    const path = await bomb("strings-ok.xlsx", sharedStringsBomb(1000, "Ana Lima"));
    const { totals } = await read(path);
    expect(totals).toMatchObject({ total: 1, valid: 1 });
  });
});

describe("item 10: text inside the sheet", () => {
  it("whitespace between rows past maxLineChars ends in an error naming the limit, sheet and row", async () => {
    const path = await bomb("whitespace.xlsx", whitespaceBomb(3 * MB));
    const error = await failure(read(path));
    expect(error.code).toBe("text_too_long");
    expect(error.message).toBe(
      `${path}: the sheet "Contacts" after row 1: a cell, a row or the space between two cells holds more than 1000000 characters, the limit (maxLineChars)`,
    );
  });

  it.each([
    ["cell", 'the sheet "Contacts", row 2'],
    ["row", 'the sheet "Contacts", row 2'],
    ["shared string", "the shared string 1"],
  ] as const)(
    "text of a %s past maxLineChars in short runs is refused at once (within 2 s), naming where (issue 43)",
    async (where, named) => {
      const path = await bomb(`long-${where.replace(" ", "-")}.xlsx`, longText(where, 1_200_000));
      const started = performance.now();
      const error = await failure(read(path));
      expect(performance.now() - started).toBeLessThan(2_000);
      expect(error.code).toBe("text_too_long");
      expect(error.message).toBe(
        `${path}: ${named}: a cell, a row or the space between two cells holds more than 1000000 characters, the limit (maxLineChars)`,
      );
    },
  );

  it("a cell past column XFD is refused, naming the row", async () => {
    const path = await bomb("past-xfd.xlsx", widestRows(3, "XFE"));
    const error = await failure(read(path));
    expect(error.code).toBe("too_many_columns");
    expect(error.message).toContain('the sheet "Contacts", row 2: a cell lies past column XFD');
  });
});

describe("item 11: the error report is bounded", () => {
  it("rows touching column XFD echo the header's columns only, saying what was left out", async () => {
    const path = await bomb("xfd.xlsx", widestRows(500));
    const summary = await validateFile(path, { defaultCountry: "US" });
    expect(summary).toMatchObject({ total: 500, rejected: 500 });
    const report = readFileSync(summary.errorsFile!, "utf8");
    expect(report.length).toBeLessThan(200_000); // 16,384 columns a line would be 16 MB
    const lines = report.trim().split("\r\n");
    expect(lines[0]!.replace(/^\uFEFF/, "")).toBe("Name,Phone,row_number,field,value,error_code,message");
    expect(lines).toHaveLength(1 + 2 * 500); // too many fields, and the phone
    expect(lines[1]).toBe(
      'Ana,12,2,,,too_many_fields,"the row has 16384 fields, the header 2: check its quoting (1 filled cell past column 2 not echoed)"',
    );
    expect(lines[2]).toMatch(
      /^Ana,12,2,phone,12,phone_too_short,.*\(1 filled cell past column 2 not echoed\)"?$/,
    );
  });

  it("a report that would grow past its limit stops with a line saying how much was left out", async () => {
    const path = await bomb("bad-rows.xlsx", badRows(25_000));
    const size = statSync(path).size;
    const cap = Math.max(1024 * 1024, 32 * size);
    const summary = await validateFile(path, { defaultCountry: "US" });
    expect(summary).toMatchObject({ total: 25_000, rejected: 25_000 });
    const bytes = statSync(summary.errorsFile!).size;
    expect(bytes).toBeLessThanOrEqual(cap + 1000);
    const last = readFileSync(summary.errorsFile!, "utf8").trim().split("\r\n").at(-1)!;
    expect(last).toMatch(
      new RegExp(
        `^,,,,,,report_cut,"the report stops here: it reached ${cap} bytes, its limit \\(32 times the file's size, at least 1048576\\); \\d+ more lines are not written\\. The summary counts every row\\."$`,
      ),
    );
  });
});
