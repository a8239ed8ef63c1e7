import type { SharedStrings } from "./shared-strings.ts";

const ZEROS = /^0+$/;

/**
 * A cell as text, the way a CSV export would have written it. Pure. Integers keep every digit
 * (14155550123, not 1.4E+10), and the leading zeros of a "0000000000" format; past 1e21 JavaScript
 * writes 1e+21, which the phone check reports as scientific notation, as for such a CSV cell.
 */
export function cellText(value: unknown, numFmt?: unknown, strings?: SharedStrings): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number") {
    const text = String(value);
    return typeof numFmt === "string" && ZEROS.test(numFmt) && /^\d+$/.test(text)
      ? text.padStart(numFmt.length, "0")
      : text;
  }
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  if (value instanceof Date) {
    const iso = value.toISOString();
    return iso.endsWith("T00:00:00.000Z") ? iso.slice(0, 10) : iso;
  }
  if (typeof value === "object") {
    const v = value as {
      sharedString?: number;
      richText?: { text?: string }[];
      result?: unknown;
      error?: string;
      text?: unknown;
    };
    if (typeof v.sharedString === "number") return strings?.get(v.sharedString) ?? "";
    if (Array.isArray(v.richText)) return v.richText.map((r) => r.text ?? "").join("");
    if ("result" in v || "formula" in v || "sharedFormula" in v) return cellText(v.result, numFmt, strings);
    if (v.error !== undefined) return String(v.error);
    if (v.text !== undefined) return cellText(v.text);
  }
  return String(value);
}
