import { type ConsentCells, consentCellsOf, consentColumns } from "../../ingest/consent-columns.ts";
import type { ConsentStore } from "../stores/consent-store.ts";
import {
  type ConsentProblem,
  type ConsentRule,
  consentFromCells,
  isProblem,
  otherSellerProblem,
  requirementFor,
  revokedProblem,
  servingConsent,
  unmetRequirement,
} from "./consent-record.ts";
import { parseConsentTime } from "./consent-time.ts";
import { type RevokeDeps, revokeConsent } from "./revoke-consent.ts";

export interface ConsentGateDeps extends RevokeDeps {
  consent: Pick<ConsentStore, "revoke" | "record" | "read">;
  now: () => number;
}

/** One row as the gate sees it. */
export interface GateRow {
  phone: string;
  cells: readonly string[];
  /** Data-row index and physical line (the errors report's row number). */
  index: number;
  line: number;
}

/** A revocation cell that says none: blank, "no", "N/A", "never", "not revoked"... */
const NONE = /^(no|n|false|0|-+|n\/?a|none|never|not revoked|not opted out|active|subscribed)\.?$/i;
/** One that says yes, now: "yes", "true", "1", "x", "revoked", "opted out", "DNC"... */
const YES = /^(yes|y|true|1|x|revoked|opted[ -]?out|opt[ -]?out|unsubscribed|dnc|do not call)\.?$/i;

/**
 * When a revocation cell says consent was revoked: a past date, or now for a yes; undefined for
 * none; "unreadable" for anything else (the row is refused, nothing revoked on a guess). Pure.
 */
export function revocationIn(cell: string | undefined, now: number): number | "unreadable" | undefined {
  if (!cell || NONE.test(cell)) return undefined;
  if (YES.test(cell)) return now;
  const at = parseConsentTime(cell);
  return at !== undefined && at <= now ? at : "unreadable";
}

/**
 * The consent check of one file's rows (decision 0067): a revocation column revokes (everywhere,
 * every seller); a row's consent is kept per number and seller unless a later one of that seller
 * is; a consent given at or before a revocation is void; under `require` a row with no serving
 * consent (its own, or one kept from an earlier file; to the job's seller when it names one) is
 * refused. Returns undefined when the file has no consent column and nothing is
 * required: every row passes untouched.
 */
export function openConsentGate(
  headers: readonly string[],
  o: ConsentRule & { file: string },
  d: ConsentGateDeps,
): ((row: GateRow) => Promise<ConsentProblem | undefined>) | undefined {
  const columns = consentColumns(headers);
  if (o.require === "none" && Object.keys(columns).length === 0) return undefined;
  return async (row) => {
    const now = d.now();
    const require = requirementFor(o, row.phone);
    const cells: ConsentCells | undefined = consentCellsOf(row.cells, columns);
    const revokedAt = revocationIn(cells?.revokedAt, now);
    const via = `file ${o.file} row ${row.line}`;
    if (revokedAt === "unreadable")
      return {
        field: "consent revoked at",
        code: "consent_invalid",
        message: `"${cells?.revokedAt}" in the revocation column is neither a past date nor yes or no: the row is not called (nothing is revoked on a guess)`,
      };
    if (revokedAt !== undefined) {
      await revokeConsent([row.phone], revokedAt, via, d);
      return revokedProblem(undefined, revokedAt, via);
    }
    const kept = (await d.consent.read([row.phone])).get(row.phone);
    const read = consentFromCells(cells, { file: o.file, row: row.line, now });
    const own = isProblem(read) ? undefined : read;
    const revoked = kept?.revokedAt;
    // A revocation voids every seller's consent given at or before it: the row's own too.
    if (revoked !== undefined && own && own.givenAt <= revoked)
      return revokedProblem(own.givenAt, revoked, kept?.revokedVia ?? "");
    if (own) await d.consent.record(row.phone, own);
    if (require === "none") return undefined;
    const all = [...(own ? [own] : []), ...(kept?.consents ?? [])];
    if (revoked !== undefined && !all.some((c) => c.givenAt > revoked))
      return revokedProblem(undefined, revoked, kept?.revokedVia ?? "");
    if (isProblem(read) && read.code === "consent_invalid") return read;
    const serving = servingConsent(all, { require, seller: o.seller, revokedAt: revoked });
    if (!serving) {
      const live = all.filter((c) => revoked === undefined || c.givenAt > revoked);
      if (o.seller !== undefined && live.length > 0) return otherSellerProblem(o.seller, live);
      return isProblem(read) ? read : undefined;
    }
    return unmetRequirement(serving, require);
  };
}
