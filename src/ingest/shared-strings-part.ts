import { SharedStrings } from "./shared-strings.ts";
import type { WorkbookLimits } from "./workbook-limits.ts";
import { type PartReading, parsePart } from "./workbook-parts.ts";

export type SharedStringsLimit = "count" | "bytes" | "text";

/**
 * The shared-strings table (xl/sharedStrings.xml), read whole before any sheet, into a packed
 * store: its count, its bytes and each string's length are bounded. Phonetic runs (<rPh>) are not
 * part of a string's text.
 */
export async function readSharedStrings(
  reading: PartReading,
  path: string | undefined,
  limits: Pick<WorkbookLimits, "sharedStrings" | "sharedStringBytes" | "textChars">,
  refuse: (limit: SharedStringsLimit, strings: SharedStrings) => Error,
): Promise<SharedStrings> {
  const strings = new SharedStrings();
  if (path === undefined) return strings;
  let text = "";
  let capturing = false;
  let phonetic = 0;
  await parsePart({ ...reading, partBytes: reading.budget.limit }, path, {
    open(name) {
      if (name === "si") text = "";
      else if (name === "t" && phonetic === 0) capturing = true;
      else if (name === "rPh") phonetic += 1;
    },
    close(name) {
      if (name === "t") capturing = false;
      else if (name === "rPh") phonetic -= 1;
      else if (name === "si") {
        if (strings.size >= limits.sharedStrings) throw refuse("count", strings);
        strings.add(text);
        if (strings.bytes > limits.sharedStringBytes) throw refuse("bytes", strings);
      }
    },
    text(t) {
      if (!capturing) return;
      text += t;
      if (text.length > limits.textChars) throw refuse("text", strings);
    },
  });
  return strings;
}
