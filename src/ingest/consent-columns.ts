import { normalizeHeader } from "./field-synonyms.ts";

/**
 * Columns that say whether and how a contact consented to be called, and whether they revoked it.
 * Not contact fields (the service's contact has none): the consent gate and the audit trail read
 * them. Pure.
 */
export const CONSENT_FIELDS = [
  "givenAt",
  "kind",
  "source",
  "text",
  "textHash",
  "seller",
  "trustedForm",
  "leadId",
  "revokedAt",
] as const;
export type ConsentField = (typeof CONSENT_FIELDS)[number];

/** A row's consent cells as written, trimmed; only those filled. */
export type ConsentCells = Partial<Record<ConsentField, string>>;

/** Column index per consent field. */
export type ConsentColumns = Partial<Record<ConsentField, number>>;

/**
 * Normalized header names, best first, as lead vendors and CRMs export them (TrustedForm's hidden
 * field `xxTrustedFormCertUrl`, Jornaya's `LeadiD` / `universal_leadid`, "TCPA Consent Date",
 * "Opt In Date", HubSpot's "Legal basis" is not consent and is not read).
 */
export const CONSENT_SYNONYMS: Record<ConsentField, readonly string[]> = {
  givenAt: [
    "consentgivenat",
    "consentdate",
    "consenttimestamp",
    "consentat",
    "tcpaconsentdate",
    "tcpaconsenttimestamp",
    "optindate",
    "optintimestamp",
    "optinat",
    "dateofconsent",
  ],
  kind: ["consentkind", "consenttype", "tcpaconsenttype", "optintype"],
  source: ["consentsource", "consenturl", "optinurl", "optinsource", "leadsourceurl", "pageurl"],
  text: ["consenttext", "consentlanguage", "tcpalanguage", "tcpaconsenttext", "disclosuretext"],
  textHash: ["consenttexthash", "consentlanguagehash", "disclosurehash"],
  seller: ["seller", "consentseller", "sellername", "consentedseller", "brand"],
  trustedForm: ["xxtrustedformcerturl", "trustedformcerturl", "trustedformurl", "trustedform", "certurl"],
  leadId: ["leadid", "universalleadid", "jornayaleadid", "jornayatoken", "leadidtoken"],
  revokedAt: [
    "consentrevokedat",
    "revokedat",
    "revocationdate",
    "consentrevoked",
    "optoutdate",
    "optedoutat",
    "revoked",
    "optedout",
    "optout",
    "donotcall",
    "dnc",
    "unsubscribed",
  ],
};

/** The consent columns of a header row: the best-named column of each field. */
export function consentColumns(headers: readonly string[]): ConsentColumns {
  const normalized = headers.map(normalizeHeader);
  const out: ConsentColumns = {};
  for (const field of CONSENT_FIELDS) {
    for (const name of CONSENT_SYNONYMS[field]) {
      const at = normalized.indexOf(name);
      if (at < 0) continue;
      out[field] = at;
      break;
    }
  }
  return out;
}

/** A row's consent cells, or undefined when none is filled. */
export function consentCellsOf(cells: readonly string[], columns: ConsentColumns): ConsentCells | undefined {
  const out: ConsentCells = {};
  for (const field of CONSENT_FIELDS) {
    const at = columns[field];
    const value = at === undefined ? "" : (cells[at] ?? "").trim();
    if (value) out[field] = value;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The header a field was read from, for messages. */
export const consentHeader = (headers: readonly string[], columns: ConsentColumns, field: ConsentField) => {
  const at = columns[field];
  return at === undefined ? undefined : headers[at];
};
