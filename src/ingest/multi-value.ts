/**
 * Cells that hold several values, as exporters write them: Google's " ::: ", a comma or semicolon
 * list (Pipedrive, HubSpot), one per line, or " / " and " | " between spaces. Pure.
 */

/** Any character that may start a separator: cells without one are returned whole, cheaply. */
const MAYBE_SEPARATED = /[:;,\n\r/|]/;
// A slash or bar only between spaces: "030/1234567" is one German number.
const SEPARATOR = /\s*:::\s*|\s*[\r\n;]+\s*|\s*,\s*|\s+[/|]\s+/;

/** False when a cell surely holds one value: the cheap test of the common case. */
export const mayHoldSeveral = (cell: string) => MAYBE_SEPARATED.test(cell);

/** The values of a trimmed cell, in the order written; the cell itself when it holds one. */
export function splitValues(cell: string): string[] {
  if (!mayHoldSeveral(cell)) return [cell];
  const parts = cell.split(SEPARATOR).filter((p) => p !== "");
  return parts.length > 0 ? parts : [cell];
}
