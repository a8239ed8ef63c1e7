import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { type CountryCode, getCountryCallingCode } from "libphonenumber-js/max";
import Papa from "papaparse";
import { lineGuard } from "../../../ingest/line-guard.ts";
import { normalizePhone } from "../../../ingest/phone.ts";

/** One line of an extract: its number as E.164, or why it is none. */
export type ExtractLine = { line: number; phone: string } | { line: number; problem: string };

export interface ExtractOptions {
  /** Country of numbers written without +country code (default US). */
  country?: CountryCode;
  /** Of a file with a header row: the phone column's header (default: the first phone-like one). */
  column?: string;
}

/** No line of an extract is this long: past it, the file is no extract (and memory stays bounded). */
const MAX_LINE_CHARS = 4_096;
/** The FTC's flat file: area code, comma, seven digits. */
const FTC_LINE = /^\s*(\d{3})\s*,\s*(\d{7})\s*$/;
/** A NANP number in any usual spelling: +1 (212) 555-0123, 1-212-555-0123, 2125550123. */
const NANP = /^(?:\+?1)?([2-9]\d{2}[2-9]\d{6})$/;
const PHONE_HEADER = /phone|number|telephone|^tel|mobile|cell|msisdn/i;
const AREA_HEADER = /^area[\s_-]*code$/i;

/**
 * Reads a do-not-call extract line by line, in bounded memory: the FTC's flat file (`212,5550123`),
 * one number a line in any spelling, or a CSV with a header row (its phone column, or an area code
 * column and a number column). Blank lines and `#` comments are skipped.
 */
export async function* readExtract(path: string, o: ExtractOptions = {}): AsyncGenerator<ExtractLine> {
  const country = o.country ?? "US";
  const nanp = getCountryCallingCode(country) === "1";
  const file = createReadStream(path, { encoding: "utf8" });
  const guarded = file.pipe(lineGuard(path, MAX_LINE_CHARS, "\n"));
  file.on("error", (error) => guarded.destroy(error));
  const lines = createInterface({ input: guarded, crlfDelay: Number.POSITIVE_INFINITY });
  let at = 0;
  let pick: ((cells: string[]) => string) | undefined;
  let first = true;
  for await (const raw of lines) {
    at += 1;
    const text = at === 1 ? raw.replace(/^\uFEFF/, "") : raw;
    if (text.trim() === "" || text.startsWith("#")) continue;
    // Only the first line can be a header: a later line with letters is a bad line.
    if (first && /[a-z]/i.test(text) && !text.trim().startsWith("+")) {
      first = false;
      pick = columnPicker(cellsOf(text), o.column, path, at);
      continue;
    }
    first = false;
    const m = pick ? undefined : FTC_LINE.exec(text);
    const written = m ? `${m[1]}${m[2]}` : pick ? pick(cellsOf(text)) : text.trim();
    yield { line: at, ...toE164(written, country, nanp) };
  }
  if (o.column !== undefined && pick === undefined)
    throw new Error(`${path}: --column "${o.column}" given, but the file has no header row`);
}

const cellsOf = (text: string) =>
  text.includes('"') ? (Papa.parse<string[]>(text).data[0] ?? []) : text.split(",");

/** The cells a number is read from: the named column, the phone-like one, or area code + number. */
function columnPicker(
  headers: string[],
  column: string | undefined,
  path: string,
  line: number,
): (cells: string[]) => string {
  const names = headers.map((h) => h.trim());
  if (column !== undefined) {
    const i = names.findIndex((h) => h.toLowerCase() === column.toLowerCase());
    if (i === -1)
      throw new Error(`${path} line ${line}: no column "${column}" in the header (${names.join(", ")})`);
    return (cells) => (cells[i] ?? "").trim();
  }
  const area = names.findIndex((h) => AREA_HEADER.test(h));
  const phone = names.findIndex((h, i) => i !== area && PHONE_HEADER.test(h));
  if (phone === -1)
    throw new Error(
      `${path} line ${line}: no phone column in the header (${names.join(", ")}); name it with --column`,
    );
  if (area === -1) return (cells) => (cells[phone] ?? "").trim();
  return (cells) => `${(cells[area] ?? "").trim()}${(cells[phone] ?? "").trim()}`;
}

/** A number as written, as E.164: NANP spellings directly (fast), others through libphonenumber. */
function toE164(
  written: string,
  country: CountryCode,
  nanp: boolean,
): { phone: string } | { problem: string } {
  const compact = written.replace(/[\s().-]/g, "");
  if (nanp || compact.startsWith("+1")) {
    const m = NANP.exec(compact);
    if (m) return { phone: `+1${m[1]}` };
  }
  const result = normalizePhone(written, country);
  return result.ok ? { phone: result.e164 } : { problem: result.message };
}
