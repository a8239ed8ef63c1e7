import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { rename, rm } from "node:fs/promises";
import { finished } from "node:stream/promises";
import Papa from "papaparse";
import { tempNameFor } from "../lib/atomic-file.ts";
import type { RowOutcome } from "./outcome.ts";
import type { RowIssue } from "./row.ts";
import { formulaSafe } from "./text.ts";

export const REPORT_COLUMNS = ["row_number", "field", "value", "error_code", "message"] as const;

/** The report lines of one outcome: one per problem, none for a clean valid row. Pure. */
export function reportLines(outcome: RowOutcome, width: number): string[][] {
  if (outcome.kind === "valid" && outcome.warnings.length === 0) return [];
  const original = Array.from(
    { length: Math.max(width, outcome.cells.length) },
    (_, i) => outcome.cells[i] ?? "",
  );
  const line = (issue: RowIssue) => [
    ...original,
    String(outcome.line),
    issue.field,
    issue.value,
    issue.code,
    issue.message,
  ];
  switch (outcome.kind) {
    case "valid":
      return outcome.warnings.map(line);
    case "rejected":
      return outcome.issues.map(line);
    case "duplicate":
      return [
        line({
          field: "phone",
          value: outcome.phone,
          code: "duplicate",
          message: `same phone as row ${outcome.firstLine}, which is kept`,
        }),
      ];
    case "skipped":
      return [line({ field: "", value: "", code: outcome.reason, message: outcome.message })];
  }
}

/**
 * Writes `<file>.errors.csv`: the original columns, then row_number, field, value, error_code,
 * message. UTF-8 with a BOM so spreadsheets read it right; cells that a spreadsheet would run as a
 * formula are escaped. Written to a temporary file and renamed into place on `close()`.
 */
export async function openErrorReport(path: string, headers: readonly string[]) {
  const tmp = tempNameFor(path);
  const out = createWriteStream(tmp);
  const write = async (cells: string[]) => {
    if (!out.write(`${Papa.unparse([cells.map(formulaSafe)], { newline: "\r\n" })}\r\n`))
      await once(out, "drain");
  };
  out.write("\uFEFF");
  await write([...headers, ...REPORT_COLUMNS]);
  let lines = 0;
  return {
    path,
    get lines() {
      return lines;
    },
    async add(outcome: RowOutcome) {
      for (const cells of reportLines(outcome, headers.length)) {
        await write(cells);
        lines += 1;
      }
    },
    async close() {
      out.end();
      await once(out, "finish");
      await rename(tmp, path);
    },
    async discard() {
      // Writes still pending (a file read in a blink) fail once destroyed: not an error here. The
      // file is removed once closed, or an open still under way would create it again.
      out.on("error", () => undefined);
      out.destroy();
      await finished(out).catch(() => undefined);
      await rm(tmp, { force: true });
    },
  };
}
