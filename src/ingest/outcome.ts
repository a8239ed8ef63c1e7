import type { ContactCreate } from "../api/schemas/contact.ts";
import type { RowIssue } from "./row.ts";

export type SkipReason =
  | "repeated_header"
  | "opted_out"
  | "recently_called"
  | "do_not_call"
  | "consent_missing"
  | "consent_invalid"
  | "consent_not_written"
  | "consent_revoked"
  | "consent_other_seller";

interface RowBase {
  /** Physical line of the file where the row starts (the header is line 1 unless blank lines precede it). */
  line: number;
  /** Position among data rows, from 0: the cursor of a resumable import. */
  index: number;
  /** The cells as read, untouched. */
  cells: string[];
}

/** What became of one data row. */
export type RowOutcome =
  | (RowBase & {
      kind: "valid";
      contact: ContactCreate;
      phone: string;
      /** Header of the column that supplied the phone. */
      phoneColumn: string;
      warnings: RowIssue[];
    })
  | (RowBase & { kind: "rejected"; issues: RowIssue[] })
  | (RowBase & { kind: "duplicate"; phone: string; firstLine: number })
  /** `field`: the field the reason concerns (a consent column), if one does. */
  | (RowBase & { kind: "skipped"; reason: SkipReason; message: string; field?: string });

export interface Totals {
  /** Data rows: always valid + rejected + duplicates + skipped. */
  total: number;
  valid: number;
  rejected: number;
  duplicates: number;
  skipped: number;
  /** Blank lines, which are not data rows. */
  blankLines: number;
  /** Footer and summary lines of a report export ("Grand Totals", "Copyright"), not data rows either. */
  footerLines: number;
  /** Problem codes and how often they occurred (a rejected row may have several). */
  codes: Record<string, number>;
}

export const emptyTotals = (): Totals => ({
  total: 0,
  valid: 0,
  rejected: 0,
  duplicates: 0,
  skipped: 0,
  blankLines: 0,
  footerLines: 0,
  codes: {},
});

/** Adds an outcome to the totals. Pure apart from mutating `totals`. */
export function count(totals: Totals, outcome: RowOutcome): void {
  totals.total += 1;
  const bump = (code: string) => {
    totals.codes[code] = (totals.codes[code] ?? 0) + 1;
  };
  switch (outcome.kind) {
    case "valid":
      totals.valid += 1;
      for (const w of outcome.warnings) bump(w.code);
      break;
    case "rejected":
      totals.rejected += 1;
      for (const i of outcome.issues) bump(i.code);
      break;
    case "duplicate":
      totals.duplicates += 1;
      bump("duplicate");
      break;
    case "skipped":
      totals.skipped += 1;
      bump(outcome.reason);
      break;
  }
}

/** The `n` most frequent problem codes. */
export const topCodes = (totals: Totals, n = 5) =>
  Object.entries(totals.codes)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, n)
    .map(([code, rows]) => ({ code, rows }));

/** A valid row set aside after reading (e.g. opted out): moved from valid to skipped. */
export function skipValid(totals: Totals, reason: SkipReason): void {
  totals.valid -= 1;
  totals.skipped += 1;
  totals.codes[reason] = (totals.codes[reason] ?? 0) + 1;
}
