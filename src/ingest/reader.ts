import { stat } from "node:fs/promises";
import { openCsv } from "./csv-source.ts";
import type { Encoding } from "./encoding.ts";
import { fileKind, namedAsWorkbook } from "./file-kind.ts";
import { isFooterMarker, mayBeFooter } from "./footer.ts";
import { headerIndex } from "./header-row.ts";
import { type ColumnMap, type ExplicitMapping, mapColumns, normalizeHeader } from "./headers.ts";
import { IngestFileError } from "./ingest-file-error.ts";
import { DEFAULT_INGEST_OPTIONS, type IngestOptions } from "./options.ts";
import { count, emptyTotals, type RowOutcome, type Totals } from "./outcome.ts";
import { PhoneIndex } from "./phone-index.ts";
import { checkRow, type RowCheck, type RowIssue } from "./row.ts";
import { asFileError, type RowSource } from "./row-source.ts";
import { openXlsx } from "./xlsx-source.ts";

export { DELIMITERS, sniffDialect } from "./csv-source.ts";

export interface FileInfo {
  file: string;
  bytes: number;
  format: "csv" | "xlsx";
  /** For a workbook: utf-8, no BOM, no delimiter nor line end. */
  encoding: Encoding;
  bom: boolean;
  delimiter: string;
  linebreak: string;
  /** The sheet read, and every sheet in tab order (workbooks only). */
  sheet: string | undefined;
  sheets: string[];
  /** Line (or sheet row) of the header; preamble lines above it are skipped. */
  headerLine: number;
  preambleLines: number;
  headers: string[];
  columns: ColumnMap;
}

interface RawRow {
  cells: string[];
  line: number;
}
type Check = RowCheck | "repeated_header";
interface Checked extends RawRow {
  check: Check;
}

const isBlank = (cells: readonly string[]) => cells.every((c) => c.trim() === "");
const isPhoneMissing = (issues: readonly RowIssue[]) => issues.some((i) => i.code === "phone_missing");
/** Footer-like rows held after a blank line while waiting for a footer marker; past this, they are rows. */
const MAX_HELD = 50;

/**
 * A file of contacts, CSV or .xlsx workbook, read as a stream: memory stays flat however large the
 * file (apart from the set of phones seen, for duplicates, and a workbook's shared strings). `open`
 * finds the header (past a preamble) and fails with an IngestFileError when the file cannot be read
 * as contacts; iterating yields one outcome per data row; footer lines of report exports are counted
 * apart; `totals` is complete once the iteration ends.
 */
export class ContactFileReader implements AsyncIterable<RowOutcome> {
  readonly totals: Totals = emptyTotals();
  private readonly seen = new PhoneIndex();
  private readonly phoneColumn: number;
  private readonly phoneHeader: string;

  private constructor(
    readonly info: FileInfo,
    private readonly options: IngestOptions,
    private readonly source: RowSource,
    /** Records read while looking for the header, below it. */
    private readonly pending: RawRow[],
  ) {
    this.phoneColumn = info.columns.phones[0]!.column;
    this.phoneHeader = info.headers[this.phoneColumn]!.toLowerCase();
  }

  static async open(file: string, overrides: Partial<IngestOptions> = {}): Promise<ContactFileReader> {
    const options = { ...DEFAULT_INGEST_OPTIONS, ...overrides };
    const size = await stat(file).then(
      (s) => s.size,
      () => {
        throw new IngestFileError("not_found", file, "no such file");
      },
    );
    if (size > options.maxFileBytes) {
      throw new IngestFileError(
        "too_large",
        file,
        `the file has ${size} bytes; the limit is ${options.maxFileBytes}`,
      );
    }
    if (size === 0) throw new IngestFileError("empty", file, "the file is empty");

    const { source, opened } = await openSource(file, size, options);
    try {
      const found = await findHeader(source, file, options.mapping, opened.sheet);
      const columns = mapColumns(found.header.cells, file, options.mapping);
      const info: FileInfo = {
        file,
        bytes: size,
        ...opened,
        headerLine: found.header.line,
        preambleLines: found.preambleLines,
        headers: found.header.cells,
        columns,
      };
      return new ContactFileReader(info, options, source, found.pending);
    } catch (error) {
      source.close();
      throw error;
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<RowOutcome> {
    const headerKey = this.info.headers.map(normalizeHeader).join("\u0000");
    const { rows } = this.source;
    let index = 0;
    const held: Checked[] = [];
    let afterBlank = false;
    let inFooter = false;
    const settle = (cells: string[], line: number, check: Check) => {
      if (index >= this.options.maxRows) {
        throw new IngestFileError(
          "too_many_rows",
          this.info.file,
          `the file has more than ${this.options.maxRows} data rows, the limit`,
        );
      }
      const outcome = this.classify(cells, line, check, index++);
      count(this.totals, outcome);
      return outcome;
    };
    try {
      for (;;) {
        let cells: string[];
        let line: number;
        if (this.pending.length > 0) {
          ({ cells, line } = this.pending.shift()!);
        } else {
          let next: IteratorResult<string[]>;
          try {
            next = await rows.next();
          } catch (error) {
            throw asFileError(error, this.info.file);
          }
          if (next.done) break;
          cells = next.value;
          line = this.source.lineOf(cells);
        }
        if (isBlank(cells)) {
          this.totals.blankLines += 1;
          afterBlank = true;
          continue;
        }
        const check = this.isRepeatedHeader(cells, headerKey)
          ? "repeated_header"
          : checkRow(cells, this.info.columns, this.options);
        // A row of one or two cells and no phone may be a report's footer: a marker ("Copyright",
        // "Grand Totals") says so; rows after a blank line are held until one does.
        if (check !== "repeated_header" && !check.ok && mayBeFooter(cells)) {
          const noPhone = isPhoneMissing(check.issues);
          if (isFooterMarker(cells) || (inFooter && noPhone)) {
            this.totals.footerLines += held.length + 1;
            held.length = 0;
            inFooter = true;
            continue;
          }
          if (afterBlank && noPhone && held.length < MAX_HELD) {
            held.push({ cells, line, check });
            continue;
          }
        }
        inFooter = false;
        afterBlank = false;
        if (held.length > 0) for (const h of held.splice(0)) yield settle(h.cells, h.line, h.check);
        yield settle(cells, line, check);
      }
      for (const h of held.splice(0)) yield settle(h.cells, h.line, h.check);
    } finally {
      this.source.close();
    }
  }

  /** The header row, repeated (files concatenated); its phone cell is compared first, cheaply. */
  private isRepeatedHeader(cells: string[], headerKey: string): boolean {
    return (
      cells.length === this.info.headers.length &&
      cells[this.phoneColumn]?.trim().toLowerCase() === this.phoneHeader &&
      cells.map(normalizeHeader).join("\u0000") === headerKey
    );
  }

  private classify(cells: string[], line: number, check: Check, index: number): RowOutcome {
    if (check === "repeated_header") {
      return { kind: "skipped", line, index, cells, reason: check, message: "the header row, repeated" };
    }
    if (!check.ok) return { kind: "rejected", line, index, cells, issues: check.issues };
    const key = Number(check.phone.slice(1));
    const firstLine = this.seen.get(key);
    if (firstLine !== 0) return { kind: "duplicate", line, index, cells, phone: check.phone, firstLine };
    this.seen.add(key, line);
    return {
      kind: "valid",
      line,
      index,
      cells,
      contact: check.contact,
      phone: check.phone,
      phoneColumn: check.phoneColumn,
      warnings: check.warnings,
    };
  }
}

type Opened = Pick<FileInfo, "format" | "encoding" | "bom" | "delimiter" | "linebreak" | "sheet" | "sheets">;

/**
 * A workbook or a CSV file, by content: a ZIP archive is tried as a workbook; one named otherwise
 * (".csv") that is none is then read as text, where it fails as binary.
 */
async function openSource(
  file: string,
  size: number,
  options: IngestOptions,
): Promise<{ source: RowSource; opened: Opened }> {
  if ((await fileKind(file)) === "xlsx") {
    try {
      const { source, sheet, sheets } = await openXlsx(file, size, options);
      const opened: Opened = {
        format: "xlsx",
        encoding: "utf-8",
        bom: false,
        delimiter: "",
        linebreak: "",
        sheet,
        sheets,
      };
      return { source, opened };
    } catch (error) {
      const notWorkbook = error instanceof IngestFileError && error.code !== "sheet_not_found";
      if (!notWorkbook || namedAsWorkbook(file)) throw error;
    }
  }
  const csv = await openCsv(file, options.maxLineChars);
  return { source: csv.source, opened: { format: "csv", ...csv.dialect, sheet: undefined, sheets: [] } };
}

/** Reads records until the header is known: see `headerIndex`. The records below it are kept. */
async function findHeader(
  source: RowSource,
  file: string,
  mapping: ExplicitMapping,
  sheet: string | undefined,
) {
  const read: RawRow[] = [];
  const filled: RawRow[] = [];
  let ended = false;
  let at: number | undefined;
  do {
    let next: IteratorResult<string[]>;
    try {
      next = await source.rows.next();
    } catch (error) {
      throw asFileError(error, file);
    }
    if (next.done) ended = true;
    else {
      const record = { cells: next.value, line: source.lineOf(next.value) };
      read.push(record);
      if (isBlank(record.cells)) continue;
      filled.push(record);
    }
    at = headerIndex(
      filled.map((r) => r.cells),
      ended,
      mapping,
    );
  } while (at === undefined && !ended);
  const header = filled[at ?? 0];
  if (!header) {
    const what = sheet === undefined ? "the file" : `the sheet "${sheet}"`;
    throw new IngestFileError("empty", file, `${what} has no header row (it holds only blank lines)`);
  }
  return {
    header: { cells: header.cells.map((h) => h.trim()), line: header.line },
    preambleLines: at ?? 0,
    pending: read.slice(read.indexOf(header) + 1),
  };
}
