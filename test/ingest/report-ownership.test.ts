import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openErrorReport } from "../../src/ingest/error-report.ts";
import { isReportHeader, isVcwErrorReport } from "../../src/ingest/report-ownership.ts";
import { tempDir } from "../support/files.ts";

describe("recognising an error report vcw wrote", () => {
  it("a report written by openErrorReport is recognised; absent and foreign files are not", async () => {
    const dir = tempDir("vcw-report-owner-");
    const path = join(dir, "a.csv.errors.csv");
    const report = await openErrorReport(path, ["Phone", "Name, full", "=cmd"]);
    await report.close();
    expect(await isVcwErrorReport(path)).toBe(true);
    expect(await isVcwErrorReport(join(dir, "absent.csv"))).toBe(false);
    const foreign = join(dir, "notes.csv");
    writeFileSync(foreign, "my notes\n");
    expect(await isVcwErrorReport(foreign)).toBe(false);
  });

  it("the header must follow a BOM and end in the five report columns", () => {
    const cols = "row_number,field,value,error_code,message";
    expect(isReportHeader(`\uFEFFPhone,${cols}\r\n1,2`)).toBe(true);
    expect(isReportHeader(`\uFEFF"Phone, mobile",${cols}\r\n`)).toBe(true);
    expect(isReportHeader(`Phone,${cols}\r\n`)).toBe(false);
    expect(isReportHeader(`\uFEFFPhone,${cols},extra\r\n`)).toBe(false);
    expect(isReportHeader(`\uFEFFPhone,row_number,field,value\r\n`)).toBe(false);
    expect(isReportHeader(`\uFEFFPhone,${cols}`)).toBe(false);
  });
});
