import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { rename, rm } from "node:fs/promises";
import { finished } from "node:stream/promises";
import Papa from "papaparse";
import { tempNameFor } from "../lib/atomic-file.ts";
import { plural } from "../lib/plural.ts";
import { DEFAULT_INGEST_OPTIONS } from "./options.ts";
import type { RowOutcome } from "./outcome.ts";
import type { RowIssue } from "./row.ts";
import { formulaSafe } from "./text.ts";

export const REPORT_COLUMNS = ["row_number", "field", "value", "error_code", "message"] as const;

/**
 * How much of a rejected row the report echoes, and how large it may grow: a row that touches
 * column XFD, or a million rejected rows of a small workbook, must not make it gigabytes.
 */
export interface ReportLimits {
  /** Characters echoed of one cell (longer cells are rejected anyway: maxFieldChars). */
  cellChars: number;
  /** Columns echoed, from the first. */
  columns: number;
  /** Bytes of the whole report; past them, one closing line says how many lines were left out. */
  bytes: number;
}

export const ECHO_COLUMNS = 1024;
export const REPORT_FLOOR = 1024 * 1024;
export const REPORT_RATIO = 32;

/** Pure. */
export function reportLimits(
  fileBytes = 0,
  maxFieldChars = DEFAULT_INGEST_OPTIONS.maxFieldChars,
): ReportLimits {
  return {
    cellChars: maxFieldChars,
    columns: ECHO_COLUMNS,
    bytes: Math.max(REPORT_FLOOR, REPORT_RATIO * fileBytes),
  };
}

/** A cell as echoed: cut past `max` characters, saying so. Pure. */
export const echoCell = (cell: string, max: number) =>
  cell.length <= max ? cell : `${cell.slice(0, max)}… [cut: ${cell.length - max} more characters]`;

/**
 * The report lines of one outcome: one per problem, none for a clean valid row. The row's cells
 * under the header's columns are echoed (at most `limits.columns`, each cut to `limits.cellChars`);
 * a message says when cells were left out. Pure.
 */
export function reportLines(
  outcome: RowOutcome,
  width: number,
  limits: Pick<ReportLimits, "cellChars" | "columns"> = reportLimits(),
): string[][] {
  if (outcome.kind === "valid" && outcome.warnings.length === 0) return [];
  const shown = Math.min(width, limits.columns);
  const original = Array.from({ length: shown }, (_, i) =>
    echoCell(outcome.cells[i] ?? "", limits.cellChars),
  );
  const hidden = outcome.cells.slice(shown).filter((c) => c !== "").length;
  const note =
    hidden > 0 ? ` (${hidden} filled ${plural("cell", hidden)} past column ${shown} not echoed)` : "";
  const line = (issue: RowIssue) => [
    ...original,
    String(outcome.line),
    issue.field,
    echoCell(issue.value, limits.cellChars),
    issue.code,
    issue.message + note,
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
      return [
        line({ field: outcome.field ?? "", value: "", code: outcome.reason, message: outcome.message }),
      ];
  }
}

/**
 * Writes `<file>.errors.csv`: the original columns, then row_number, field, value, error_code,
 * message. UTF-8 with a BOM so spreadsheets read it right; cells that a spreadsheet would run as a
 * formula are escaped. Bounded by `reportLimits`: once full, a last line (error_code
 * "report_cut") says how many lines were left out. Written to a temporary file and renamed into
 * place on `close()`.
 */
export async function openErrorReport(
  path: string,
  headers: readonly string[],
  sizes: { fileBytes?: number; maxFieldChars?: number } = {},
) {
  const limits = reportLimits(sizes.fileBytes, sizes.maxFieldChars);
  const width = Math.min(headers.length, limits.columns);
  const tmp = tempNameFor(path);
  const out = createWriteStream(tmp);
  let bytes = 0;
  const format = (cells: string[]) => `${Papa.unparse([cells.map(formulaSafe)], { newline: "\r\n" })}\r\n`;
  const write = async (text: string) => {
    bytes += Buffer.byteLength(text);
    if (!out.write(text)) await once(out, "drain");
  };
  out.write("\uFEFF");
  await write(
    format([...headers.slice(0, width).map((h) => echoCell(h, limits.cellChars)), ...REPORT_COLUMNS]),
  );
  let lines = 0;
  let left = 0;
  return {
    path,
    /** Problem lines, written or left out. */
    get lines() {
      return lines;
    },
    /** Lines left out once the report was full. */
    get omitted() {
      return left;
    },
    async add(outcome: RowOutcome) {
      for (const cells of reportLines(outcome, width, limits)) {
        lines += 1;
        const text = left > 0 ? "" : format(cells);
        if (left > 0 || bytes + Buffer.byteLength(text) > limits.bytes) left += 1;
        else await write(text);
      }
    },
    async close() {
      if (left > 0) {
        const message = `the report stops here: it reached ${limits.bytes} bytes, its limit (${REPORT_RATIO} times the file's size, at least ${REPORT_FLOOR}); ${left} more ${plural("line", left)} ${left === 1 ? "is" : "are"} not written. The summary counts every row.`;
        await write(format([...Array<string>(width).fill(""), "", "", "", "report_cut", message]));
      }
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
