import { normalizeEmail } from "./email.ts";
import { splitValues } from "./multi-value.ts";
import { cleanCell } from "./text.ts";

/** A column that may supply the e-mail; a row takes the first valid address in rank order. */
export interface EmailColumn {
  column: number;
  header: string;
}

export type EmailPick =
  /** `refused`: filled cells before it that held no address. */
  | { ok: true; email: string; header: string; refused: { header: string; value: string; message: string }[] }
  | { ok: false; value: string; message: string };

/** The first valid address of a cell that may hold several ("a@x.com ::: b@y.com"). Pure. */
export function firstEmail(value: string) {
  const values = splitValues(value);
  let first = normalizeEmail(values[0]!);
  for (let i = 1; i < values.length && !first.ok; i++) {
    const next = normalizeEmail(values[i]!);
    if (next.ok) first = next;
  }
  return first.ok || values.length === 1 ? first : normalizeEmail(value);
}

/**
 * The row's e-mail, from the first of its e-mail columns (iCloud's "Email: Home", "Email: Work")
 * that holds a valid address; undefined when none is filled. Cells past `maxChars` are skipped
 * (reported as too long by the caller). Pure.
 */
export function pickEmail(
  cells: readonly string[],
  columns: readonly EmailColumn[],
  maxChars: number,
): EmailPick | undefined {
  const refused: { header: string; value: string; message: string }[] = [];
  for (const { column, header } of columns) {
    const value = cleanCell(cells[column]);
    if (value === "" || value.length > maxChars) continue;
    const email = firstEmail(value);
    if (email.ok) return { ok: true, email: email.email, header, refused };
    refused.push({ header, value, message: email.message });
  }
  const first = refused[0];
  return first && { ok: false, value: first.value, message: first.message };
}
