/** Text clean-up of cell values and spreadsheet-safe export. Pure. */

/**
 * Trims a cell. `String.prototype.trim` removes every Unicode space (non-breaking spaces included),
 * tabs, line ends and the BOM; what is left of a whitespace-only cell is empty.
 */
export const cleanCell = (value: string | undefined): string => (value === undefined ? "" : value.trim());

export { formulaSafe } from "../lib/formula-safe.ts";

const LINE_BREAK = /\r\n|\r|\n/g;

/** Physical lines a record spans: 1 + the line breaks inside its (quoted) cells. */
export function linesSpanned(cells: readonly string[]): number {
  let lines = 1;
  for (const cell of cells) {
    if (cell.includes("\n") || cell.includes("\r")) lines += cell.match(LINE_BREAK)?.length ?? 0;
  }
  return lines;
}
