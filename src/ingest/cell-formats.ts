/**
 * Number formats of a workbook's cells, as far as reading contacts needs them: whether a number is
 * a date, and the format code (a "0000000000" format keeps a phone's leading zeros). Pure.
 */
export interface CellFormat {
  code: string;
  date: boolean;
}

/** Built-in formats that are dates or times (ECMA-376 18.8.30, with the East Asian ones). */
const BUILTIN_DATES = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36]);
for (const id of [45, 46, 47, 50, 51, 52, 53, 54, 55, 56, 57, 58]) BUILTIN_DATES.add(id);
const BUILTIN_CODES: Record<number, string> = { 0: "General", 1: "0", 2: "0.00", 49: "@" };

/** A custom code is a date when, outside quoted text, [colours] and escapes, it has y, m, d, h or s. */
export function isDateCode(code: string): boolean {
  const bare = code
    .split(";")[0]!
    .replace(/"[^"]*"/g, "")
    .replace(/\\./g, "")
    .replace(/\[(?!h\]|m\]|s\]|hh\]|mm\]|ss\])[^\]]*\]/gi, "");
  return /[ymdhs]/i.test(bare) && !/^general$/i.test(bare.trim());
}

export function cellFormat(numFmtId: number, custom: ReadonlyMap<number, string>): CellFormat {
  const code = custom.get(numFmtId) ?? BUILTIN_CODES[numFmtId] ?? "";
  return { code, date: custom.has(numFmtId) ? isDateCode(code) : BUILTIN_DATES.has(numFmtId) };
}

const EPOCH_1900 = Date.UTC(1899, 11, 30);
const EPOCH_1904 = Date.UTC(1904, 0, 1);

/**
 * An Excel date serial as a Date (UTC), to the second. In the 1900 system, serials below 60 are a
 * day off: Excel counts a 29 February 1900 that never was.
 */
export function excelDate(serial: number, date1904: boolean): Date | undefined {
  if (!Number.isFinite(serial)) return undefined;
  const days = date1904 ? serial : serial < 60 ? serial + 1 : serial;
  const ms = (date1904 ? EPOCH_1904 : EPOCH_1900) + Math.round(days * 86_400) * 1000;
  return Math.abs(ms) <= 8.64e15 ? new Date(ms) : undefined;
}
