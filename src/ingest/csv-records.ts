import { Transform } from "node:stream";
import { IngestFileError } from "./ingest-file-error.ts";

// Where the scan stands in a record, as papaparse's parser would: a quote opens a quoted field only
// at a field's start; inside one, a quote followed by a quote is a quote, and one followed (past
// spaces) by the delimiter or the line end closes the field; any other is kept and the field goes on.
const FIELD_START = 0;
const UNQUOTED = 1;
const QUOTED = 2;
/** A quote inside a quoted field: the next character says what it was. */
const QUOTE_SEEN = 3;
/** Spaces after that quote: a delimiter or line end next closes the field, anything else not. */
const AFTER_QUOTE = 4;

const QUOTE = 0x22;
const CR = 0x0d;
const LF = 0x0a;
/**
 * papaparse trims what follows a quote that closes nothing, up to the next delimiter and line end:
 * each such quote scans the spaces before them again. Past this many scans a character of the record
 * (and a few to begin with: a sloppy export's stray quotes before some padding), the quoting is
 * broken, and reading on would cost time growing as the square of the record.
 */
const SPACE_SCANS_PER_CHAR = 8;
const SPACE_SCANS_FREE = 1024;

/** What String.prototype.trim removes, the spaces papaparse allows between a closing quote and what follows. */
const isSpace = (c: number) =>
  (c >= 9 && c <= 13) ||
  c === 32 ||
  c === 0xa0 ||
  c === 0x1680 ||
  (c >= 0x2000 && c <= 0x200a) ||
  c === 0x2028 ||
  c === 0x2029 ||
  c === 0x202f ||
  c === 0x205f ||
  c === 0x3000 ||
  c === 0xfeff;

export interface CsvShape {
  delimiter: string;
  linebreak: string;
  /** Characters one record may hold (its line end apart): a line, or the lines a quoted field joins. */
  maxChars: number;
}

/**
 * Finds where each record of a CSV text ends, chunk after chunk, in one pass: the records papaparse
 * will read, and their physical lines. A record that grows past `maxChars`, or whose broken quoting
 * would make papaparse's work grow as its square, fails the file as soon as it does.
 */
export class RecordScanner {
  private readonly delimiter: number;
  private readonly breakCode: number;
  private readonly crlf: boolean;
  private state = FIELD_START;
  private previous = 0;
  /** Characters scanned before the current chunk; where the open record starts. */
  private offset = 0;
  private recordStart = 0;
  /** Physical line of the next character (any of \r\n, \r, \n ends one); where the record and its last quoted field began. */
  private line = 1;
  private recordLine = 1;
  private quoteLine = 1;
  /**
   * papaparse's space scans: quotes that closed nothing and await a delimiter or a line end, the spaces
   * just before (counted while some do), its work in the open record.
   */
  private spaces = 0;
  private awaitingStop = 0;
  private awaitingBreak = 0;
  private scans = 0;

  constructor(
    private readonly file: string,
    private readonly shape: CsvShape,
  ) {
    this.delimiter = shape.delimiter.charCodeAt(0);
    this.breakCode = shape.linebreak.endsWith("\n") ? LF : CR;
    this.crlf = shape.linebreak === "\r\n";
  }

  /** The index just past the last record end in `chunk`, 0 when none ends in it; throws an IngestFileError past a limit. */
  scan(chunk: string): number {
    const { delimiter, breakCode, crlf } = this;
    let { state, previous, line, spaces } = this;
    // The first index of this chunk past the open record's limit.
    let limit = this.recordStart + this.shape.maxChars - this.offset;
    let lastEnd = 0;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      const isBreak = c === breakCode && (!crlf || previous === CR);
      const ends = isBreak && state !== QUOTED;
      if (i >= limit && !ends) throw this.tooLong(state, line);
      if (c === CR || (c === LF && previous !== CR)) line++;
      if (this.awaitingBreak > 0) {
        if (c === delimiter || isBreak) this.noteScans(isBreak, spaces, i);
        spaces = isSpace(c) ? spaces + 1 : 0;
      }
      previous = c;
      if (ends) {
        state = FIELD_START;
        lastEnd = i + 1;
        this.endRecord(lastEnd, line);
        limit = lastEnd + this.shape.maxChars;
      } else if (state === FIELD_START) {
        if (c === QUOTE) {
          state = QUOTED;
          this.quoteLine = line;
        } else if (c !== delimiter) state = UNQUOTED;
      } else if (state === UNQUOTED) {
        if (c === delimiter) state = FIELD_START;
      } else if (state === QUOTED) {
        if (c === QUOTE) state = QUOTE_SEEN;
      } else if (c === delimiter) state = FIELD_START;
      else if (c === QUOTE && state === QUOTE_SEEN)
        state = QUOTED; // a doubled quote
      else if (isSpace(c)) state = AFTER_QUOTE;
      else {
        // The quote closed nothing: papaparse looks past it for spaces before the next delimiter and line end.
        this.awaitingStop += 1;
        this.awaitingBreak += 1;
        spaces = 0;
        state = c === QUOTE ? QUOTE_SEEN : QUOTED;
      }
    }
    this.state = state;
    this.previous = previous;
    this.line = line;
    this.spaces = spaces;
    this.offset += chunk.length;
    return lastEnd;
  }

  /** A record ended just before chunk index `next`, on the line before `line`. */
  private endRecord(next: number, line: number): void {
    this.recordStart = this.offset + next;
    this.recordLine = line;
    this.scans = 0;
  }

  /** papaparse's space scans for the quotes awaiting this delimiter or line end (at chunk index `at`). */
  private noteScans(isBreak: boolean, spaces: number, at: number): void {
    this.scans += (this.awaitingStop + (isBreak ? this.awaitingBreak : 0)) * spaces;
    this.awaitingStop = 0;
    if (isBreak) this.awaitingBreak = 0;
    const chars = this.offset + at - this.recordStart + 1;
    if (this.scans > SPACE_SCANS_PER_CHAR * chars + SPACE_SCANS_FREE) throw this.brokenQuotes();
  }

  private tooLong(state: number, line: number): IngestFileError {
    const { maxChars } = this.shape;
    if (state >= QUOTED)
      return new IngestFileError(
        "field_too_long",
        this.file,
        `line ${this.quoteLine}: a quoted field runs on past ${maxChars} characters (to line ${line}) without its closing quote: is a quote missing? (the limit is maxLineChars)`,
      );
    const where = line > this.recordLine ? `lines ${this.recordLine}-${line}` : `line ${this.recordLine}`;
    return new IngestFileError(
      "line_too_long",
      this.file,
      `${where}: a line is longer than ${maxChars} characters: is this a CSV file?`,
    );
  }

  private brokenQuotes(): IngestFileError {
    return new IngestFileError(
      "broken_quotes",
      this.file,
      `line ${this.recordLine}: quotes inside a quoted field close nothing, before long runs of spaces: the quoting is broken (reading it would take time growing as the square of its length)`,
    );
  }
}

/**
 * Passes a CSV text stream on in whole records only, so that papaparse never reads a record twice
 * (it reads a record cut between two chunks again from its start at every chunk: a quoted field of a
 * million lines took minutes); the part of a record not yet ended is held, at most `maxChars`.
 */
export function recordGuard(file: string, shape: CsvShape): Transform {
  const scanner = new RecordScanner(file, shape);
  let held: string[] = [];
  return new Transform({
    decodeStrings: false,
    transform(chunk: string, _encoding, done) {
      let end: number;
      try {
        end = scanner.scan(chunk);
      } catch (error) {
        done(error as Error);
        return;
      }
      if (end === 0) {
        held.push(chunk);
        done();
        return;
      }
      held.push(chunk.slice(0, end));
      const records = held.join("");
      held = end < chunk.length ? [chunk.slice(end)] : [];
      done(null, records);
    },
    flush(done) {
      const rest = held.join("");
      held = [];
      done(null, rest === "" ? undefined : rest);
    },
  });
}
