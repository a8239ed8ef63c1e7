import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli.ts";
import { tempDir, writeFixture } from "../support/files.ts";

const dir = tempDir("vcw-validate-");
const file = writeFixture(
  dir,
  "leads.csv",
  "Given Name;Surname;Mobile;E-mail;Shoe size\r\nZoë;Lima;(415) 555-0101;zoe@example.com;38\r\nBob;;12;;44\r\nCy;;415 555 0101;;41\r\n",
  "win1252",
);

describe("vcw validate", () => {
  it("prints a summary a person can act on, and writes the error report", async () => {
    const result = await runCli(["validate", file, "--country", "us"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("encoding   windows-1252");
    expect(result.stdout).toContain("delimiter  semicolon, line ends CRLF");
    expect(result.stdout).toContain(
      "Given Name -> first_name, Surname -> last_name, Mobile -> phone, E-mail -> email",
    );
    expect(result.stdout).toContain("not sent   Shoe size");
    expect(result.stdout).toContain("rows       3 = 1 valid + 1 rejected + 1 duplicate + 0 skipped");
    // Reasons in words (issue 40); the error report keeps the codes, for scripts.
    expect(result.stdout).toContain("top issues repeated in the file (1), phone too short (1)");
    expect(readFileSync(`${file}.errors.csv`, "utf8")).toContain("phone_too_short");
  });

  it("--job on the sample in jobs/ writes its report in the current folder, never among the job definitions", async () => {
    const jobs = fileURLToPath(new URL("../../jobs", import.meta.url));
    const samples = join(jobs, "samples");
    const before = readdirSync(samples);
    const cwd = tempDir("vcw-validate-cwd-");
    const result = await runCli(
      ["validate", join(samples, "example-leads.csv"), "--job", "example-leads"],
      { VCW_JOBS_DIR: jobs },
      30_000,
      cwd,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("error report: example-leads.csv.errors.csv");
    expect(readFileSync(join(cwd, "example-leads.csv.errors.csv"), "utf8")).toContain("phone_too_short");
    expect(readdirSync(samples)).toEqual(before);
    expect(before).toEqual(["example-leads.csv"]);
  });

  it("--json prints one object with the totals", async () => {
    const out = join(dir, "errors-out.csv");
    const result = await runCli(["validate", file, "--country", "US", "--json", "--errors", out]);
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout);
    expect(summary).toMatchObject({
      total: 3,
      valid: 1,
      rejected: 1,
      duplicates: 1,
      skipped: 0,
      encoding: "windows-1252",
      delimiter: ";",
    });
    expect(summary.errorsFile).toBe(out);
    expect(existsSync(out)).toBe(true);
  });

  it("two phone columns are ranked; --map chooses one explicitly", async () => {
    const f = writeFixture(dir, "two-phones.csv", "Name,Phone,Mobile\nAna,4155550101,4155550102\n");
    const ranked = await runCli(["validate", f, "--country", "US", "--json"]);
    expect(ranked.code).toBe(0);
    expect(JSON.parse(ranked.stdout)).toMatchObject({ valid: 1, columns: { phone: "Mobile" } });
    const mapped = await runCli(["validate", f, "--country", "US", "--map", "phone=Phone", "--json"]);
    expect(JSON.parse(mapped.stdout)).toMatchObject({
      valid: 1,
      columns: { phone: "Phone" },
      unknownColumns: ["Mobile"],
    });
  });

  it("explains the mapping: each column chosen and why, the ones set aside and why", async () => {
    const f = writeFixture(
      dir,
      "outlook.csv",
      "Title,First Name,Job Title,Business Phone,Mobile Phone,Business Fax\nMs,Ana,Buyer,4155550101,4155550102,4155550103\n",
    );
    const result = await runCli(["validate", f, "--country", "US"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('phone      <- "Mobile Phone": 1st phone tried: a mobile number');
    expect(result.stdout).toContain('phone      <- "Business Phone": 2nd phone tried: a work number');
    expect(result.stdout).toContain('job_title  <- "Job Title": header names job title');
    expect(result.stdout).toContain('ignored    "Title": also reads as job_title; "Job Title" is preferred');
    expect(result.stdout).toContain('"Business Fax": a fax number: never called');
    const json = JSON.parse((await runCli(["validate", f, "--country", "US", "--json"])).stdout);
    expect(json).toMatchObject({
      columns: { first_name: "First Name", job_title: "Job Title", phone: "Mobile Phone" },
      phoneColumns: ["Mobile Phone", "Business Phone"],
      ignoredColumns: expect.arrayContaining([expect.objectContaining({ header: "Business Fax" })]),
    });
  });

  it("reads a workbook's chosen sheet", async () => {
    const book = new ExcelJS.Workbook();
    book.addWorksheet("Summary").addRow(["Calls this week", 3]);
    const leads = book.addWorksheet("Leads");
    leads.addRow(["Name", "Mobile"]);
    leads.addRow(["Ana Lima", 14155550101]);
    const f = join(dir, "book.xlsx");
    await book.xlsx.writeFile(f);
    const result = await runCli(["validate", f, "--country", "US", "--sheet", "leads"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('sheet      "Leads" of an Excel workbook (sheets: "Summary", "Leads")');
    expect(result.stdout).toContain("rows       1 = 1 valid + 0 rejected + 0 duplicate + 0 skipped");
    const missing = await runCli(["validate", f, "--sheet", "Contacts"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/the workbook has no sheet "Contacts" \(sheets: "Summary", "Leads"\)/);
  });

  it.each([
    [["validate", "/nonexistent/file.csv"], 1, /\/nonexistent\/file\.csv: no such file/],
    [["validate", file, "--country", "Narnia"], 2, /--country must be a two-letter country code/],
    [["validate", file, "--map", "phone"], 2, /--map takes field=Column/],
  ])("%j exits %i with a clear message", async (args, code, message) => {
    const result = await runCli(args as string[]);
    expect(result.code).toBe(code);
    expect(result.stderr).toMatch(message);
  });

  it("a binary file is refused with a non-zero status", async () => {
    const bin = writeFixture(dir, "photo.csv", Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]));
    const result = await runCli(["validate", bin]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/binary, not text/);
  });
});
