import { createReadStream } from "node:fs";
import { open, stat } from "node:fs/promises";
import { pipeline } from "node:stream";
import Papa from "papaparse";
import { decoderStream, decodeSample, detectEncoding, type Encoding } from "./encoding.ts";
import { type ColumnMap, mapColumns, normalizeHeader } from "./headers.ts";
import { IngestFileError } from "./ingest-file-error.ts";
import { lineGuard } from "./line-guard.ts";
import { DEFAULT_INGEST_OPTIONS, type IngestOptions } from "./options.ts";
import { count, emptyTotals, type RowOutcome, type Totals } from "./outcome.ts";
import { PhoneIndex } from "./phone-index.ts";
import { checkRow } from "./row.ts";
import { linesSpanned } from "./text.ts";

export const DELIMITERS = [",", ";", "\t", "|"] as const;
const SNIFF_BYTES = 64 * 1024;

export interface FileInfo {
  file: string;
  bytes: number;
  encoding: Encoding;
  bom: boolean;
  delimiter: string;
  linebreak: string;
  headers: string[];
  columns: ColumnMap;
}

/** Delimiter and line end of a text sample, as papaparse guesses them. Pure. */
export function sniffDialect(sample: string): { delimiter: string; linebreak: string } {
  const { meta } = Papa.parse(sample, {
    preview: 50,
    skipEmptyLines: true,
    delimitersToGuess: [...DELIMITERS],
  });
  return { delimiter: meta.delimiter, linebreak: meta.linebreak };
}

const isBlank = (cells: readonly string[]) => cells.every((c) => c.trim() === "");

/**
 * A CSV file of contacts, read as a stream: memory stays flat however large the file (apart from
 * the set of phones seen, for duplicates). `open` reads the header and fails with an
 * IngestFileError when the file cannot be read as contacts; iterating yields one outcome per data
 * row; `totals` is complete once the iteration ends.
 */
export class ContactFileReader implements AsyncIterable<RowOutcome> {
  readonly totals: Totals = emptyTotals();
  private readonly seen = new PhoneIndex();
  private readonly phoneColumn: number;
  private readonly phoneHeader: string;

  private constructor(
    readonly info: FileInfo,
    private readonly options: IngestOptions,
    private readonly rows: AsyncIterator<string[]>,
    private nextLine: number,
    private readonly close: () => void,
  ) {
    this.phoneColumn = info.columns.fields.indexOf("phone");
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
    const { encoding, bom } = await detectEncoding(file);
    const { delimiter, linebreak } = sniffDialect(decodeSample(await readHead(file, SNIFF_BYTES), encoding));

    const parser = Papa.parse(Papa.NODE_STREAM_INPUT, {
      delimiter,
      newline: linebreak as "\n",
      quoteChar: '"',
      escapeChar: '"',
      header: false,
      dynamicTyping: false,
      skipEmptyLines: false,
    });
    // papaparse pauses its parser whenever this buffer is full and rebuilds it on resume: give it room.
    (parser as unknown as { _readableState: { highWaterMark: number } })._readableState.highWaterMark = 1024;
    const source = createReadStream(file, { highWaterMark: 64 * 1024 });
    const stream = pipeline(
      source,
      decoderStream(encoding),
      lineGuard(file, options.maxLineChars, linebreak.endsWith("\n") ? "\n" : "\r"),
      parser,
      () => undefined,
    );
    const rows = (stream as AsyncIterable<string[]>)[Symbol.asyncIterator]();

    let line = 1;
    let header: string[] | undefined;
    try {
      for (;;) {
        const next = await rows.next();
        if (next.done) break;
        if (!isBlank(next.value)) {
          header = next.value.map((h) => h.trim());
          line += linesSpanned(next.value);
          break;
        }
        line += 1;
      }
    } catch (error) {
      source.destroy();
      throw asFileError(error, file);
    }
    if (!header) {
      source.destroy();
      throw new IngestFileError("empty", file, "the file has no header row (it holds only blank lines)");
    }
    let columns: ColumnMap;
    try {
      columns = mapColumns(header, file, options.mapping);
    } catch (error) {
      source.destroy();
      throw error;
    }
    const info = { file, bytes: size, encoding, bom, delimiter, linebreak, headers: header, columns };
    return new ContactFileReader(info, options, rows, line, () => source.destroy());
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<RowOutcome> {
    const headerKey = this.info.headers.map(normalizeHeader).join("\u0000");
    let index = 0;
    try {
      for (;;) {
        let next: IteratorResult<string[]>;
        try {
          next = await this.rows.next();
        } catch (error) {
          throw asFileError(error, this.info.file);
        }
        if (next.done) return;
        const cells = next.value;
        const line = this.nextLine;
        this.nextLine += linesSpanned(cells);
        if (isBlank(cells)) {
          this.totals.blankLines += 1;
          continue;
        }
        if (index >= this.options.maxRows) {
          throw new IngestFileError(
            "too_many_rows",
            this.info.file,
            `the file has more than ${this.options.maxRows} data rows, the limit`,
          );
        }
        const outcome = this.classify(cells, line, index++, headerKey);
        count(this.totals, outcome);
        yield outcome;
      }
    } finally {
      this.close();
    }
  }

  /** Cheap first test of a repeated header: its phone cell reads like the phone header. */
  private looksLikeHeader(cells: string[]): boolean {
    const at = this.phoneColumn;
    return cells.length === this.info.headers.length && cells[at]?.trim().toLowerCase() === this.phoneHeader;
  }

  private classify(cells: string[], line: number, index: number, headerKey: string): RowOutcome {
    if (this.looksLikeHeader(cells) && cells.map(normalizeHeader).join("\u0000") === headerKey) {
      return {
        kind: "skipped",
        line,
        index,
        cells,
        reason: "repeated_header",
        message: "the header row, repeated",
      };
    }
    const check = checkRow(cells, this.info.columns, this.options);
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
      warnings: check.warnings,
    };
  }
}

async function readHead(file: string, bytes: number): Promise<Buffer> {
  const handle = await open(file, "r");
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

function asFileError(error: unknown, file: string): IngestFileError {
  if (error instanceof IngestFileError) return error;
  return new IngestFileError("unreadable", file, `cannot read the file: ${(error as Error).message}`);
}
