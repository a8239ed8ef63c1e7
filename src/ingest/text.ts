/** Text clean-up of cell values and spreadsheet-safe export. Pure. */

/**
 * Trims a cell. `String.prototype.trim` removes every Unicode space (non-breaking spaces included),
 * tabs, line ends and the BOM; what is left of a whitespace-only cell is empty.
 */
export const cleanCell = (value: string | undefined): string => (value === undefined ? "" : value.trim());

const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * Escapes a cell that a spreadsheet would run as a formula (leading = + - @ tab CR), for files people
 * open in Excel. Only for exports: never applied to data sent to the API.
 */
export const formulaSafe = (value: string): string => (FORMULA_START.test(value) ? `'${value}` : value);

const LINE_BREAK = /\r\n|\r|\n/g;

/** Physical lines a record spans: 1 + the line breaks inside its (quoted) cells. */
export function linesSpanned(cells: readonly string[]): number {
  let lines = 1;
  for (const cell of cells) {
    if (cell.includes("\n") || cell.includes("\r")) lines += cell.match(LINE_BREAK)?.length ?? 0;
  }
  return lines;
}
