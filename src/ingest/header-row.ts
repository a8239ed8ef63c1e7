/** Which of a file's first rows is its header, past a preamble ("Notes:", a title). Pure. */
import { type ExplicitMapping, namesAPhone } from "./headers.ts";

/** Rows read at most before giving up on finding a header below the first row. */
export const MAX_PREAMBLE_ROWS = 20;
/** A preamble line holds a note or a title: one or two cells. */
const PREAMBLE_CELLS = 2;

export const filledCells = (cells: readonly string[]) => {
  let n = 0;
  for (const cell of cells) if (cell.trim() !== "") n++;
  return n;
};

/**
 * The index of the header among the non-blank `rows` read so far, or undefined to read more. The
 * header is the first row that names a phone, or the first wider than a preamble line; every row
 * above it must be a preamble line, narrower than the header. Failing that, the first row.
 */
export function headerIndex(
  rows: readonly string[][],
  ended: boolean,
  explicit: ExplicitMapping = {},
): number | undefined {
  let widestAbove = 0;
  for (const [i, cells] of rows.entries()) {
    const filled = filledCells(cells);
    if (filled > widestAbove && namesAPhone(cells, explicit)) return i;
    if (filled > PREAMBLE_CELLS) return i;
    widestAbove = Math.max(widestAbove, filled);
  }
  return ended || rows.length >= MAX_PREAMBLE_ROWS ? 0 : undefined;
}
