import { createHash } from "node:crypto";
import { parsePhoneNumberFromString } from "libphonenumber-js/max";
import type { ConsentCells } from "../../ingest/consent-columns.ts";
import { type ConsentKind, type ConsentRecord, sellerSlot } from "../stores/consent-store.ts";
import { parseConsentTime } from "./consent-time.ts";

export type { ConsentKind, ConsentRecord };

/** What a job requires before a number is called (`calling.consent.require`). */
export type ConsentRequirement = "none" | "express" | "written";

/**
 * A job's consent rule: what it requires, of which numbers (`countries`; absent: every number),
 * and for which seller (`seller`; absent: a consent naming any seller, or none, serves).
 */
export interface ConsentRule {
  require: ConsentRequirement;
  countries?: readonly string[] | undefined;
  seller?: string | undefined;
}

/**
 * What `rule` requires of one number (E.164): its requirement when the number belongs to one of the
 * rule's countries (or it names none), else "none". A number no country claims is required of: a
 * rule is never waived on a guess. Pure.
 */
export function requirementFor(rule: ConsentRule, e164: string): ConsentRequirement {
  if (rule.require === "none" || !rule.countries) return rule.require;
  const country = parsePhoneNumberFromString(e164)?.country;
  return country && !rule.countries.includes(country) ? "none" : rule.require;
}
/** Why a row's consent does not serve, naming the field (a consent field, as the errors report shows it). */
export interface ConsentProblem {
  field: string;
  code:
    | "consent_missing"
    | "consent_invalid"
    | "consent_not_written"
    | "consent_revoked"
    | "consent_other_seller";
  message: string;
}

/** Words that say no consent was given, or that it was taken back: never read as a kind. */
const NEGATION =
  /\b(not|no|non|never|none|without|declined?|refused?|denied|revoked?|opt ?out|opted ?out|unsubscribed?|dnc|n a|false)\b/;

/**
 * "express written", "PEWC", "written" are written; "express", "prior express" are express; a blank
 * cell says nothing (undefined); a cell that negates ("not written", "declined") or that vcw does not
 * read is "unreadable": never taken for consent. Pure.
 */
export function consentKindOf(cell: string | undefined): ConsentKind | "unreadable" | undefined {
  const words = (cell ?? "")
    .toLowerCase()
    .replace(/[^a-z]+/g, " ")
    .trim();
  if (!words) return undefined;
  if (NEGATION.test(words)) return "unreadable";
  if (/\b(written|pewc|e ?sign|signed)\b/.test(words)) return "written";
  if (/\b(express|pec|verbal|opt ?in|yes|true)\b/.test(words)) return "express";
  return "unreadable";
}

/** A row's consent, read from its cells; or why none serves. `now` bounds a given-at in the future. Pure. */
export function consentFromCells(
  cells: ConsentCells | undefined,
  at: { file: string; row: number; now: number },
): ConsentRecord | ConsentProblem {
  const given = cells?.givenAt;
  const evidence = cells?.trustedForm ?? cells?.leadId ?? cells?.source;
  if (!given) {
    const why = evidence ? "consent evidence but no time it was given" : "no consent";
    return {
      field: "consent given at",
      code: "consent_missing",
      message: `${why}: a "Consent Given At" column (or TCPA Consent Date, Opt In Date) must say when`,
    };
  }
  const givenAt = parseConsentTime(given);
  if (givenAt === undefined || givenAt > at.now)
    return {
      field: "consent given at",
      code: "consent_invalid",
      message: `"${given}" is not a past date and time (2025-03-01T14:05:00Z, 03/01/2025 2:05 PM, epoch seconds)`,
    };
  const read = consentKindOf(cells?.kind);
  if (read === "unreadable")
    return {
      field: "consent kind",
      code: "consent_invalid",
      message: `"${cells?.kind}" is not a consent kind vcw reads (written, express written, PEWC, e-sign, express, verbal, opt-in): the row is not taken for consent`,
    };
  const kind = read ?? "express";
  const textHash = cells?.textHash ?? (cells?.text && createHash("sha256").update(cells.text).digest("hex"));
  return {
    givenAt,
    kind,
    ...(cells?.source ? { source: cells.source } : {}),
    ...(textHash ? { textHash } : {}),
    ...(cells?.seller ? { seller: cells.seller } : {}),
    ...(cells?.trustedForm ? { trustedForm: cells.trustedForm } : {}),
    ...(cells?.leadId ? { leadId: cells.leadId } : {}),
    file: at.file,
    row: at.row,
  };
}

export const isProblem = (r: ConsentRecord | ConsentProblem): r is ConsentProblem => "code" in r;

/** Whether `record` meets `require`: written needs a written consent; express either kind. Pure. */
export function unmetRequirement(
  record: ConsentRecord,
  require: ConsentRequirement,
): ConsentProblem | undefined {
  if (require !== "written" || record.kind === "written") return undefined;
  return {
    field: "consent kind",
    code: "consent_not_written",
    message:
      'the job requires prior express written consent (calling.consent.require: written); the row\'s "Consent Kind" does not say written',
  };
}

/** A revocation at `revokedAt` voids every consent given at or before it (a newer one is a new consent). Pure. */
export function revokedProblem(givenAt: number | undefined, revokedAt: number, via: string): ConsentProblem {
  const when = new Date(revokedAt).toISOString();
  const older =
    givenAt === undefined ? "" : ` (the file's consent, ${new Date(givenAt).toISOString()}, is older)`;
  return {
    field: "consent given at",
    code: "consent_revoked",
    message: `consent was revoked ${when} (${via})${older}`,
  };
}

/** Whether `record` is a consent given to `seller` (none named: any consent is). Pure. */
export const givenTo = (record: ConsentRecord, seller: string | undefined): boolean =>
  seller === undefined || sellerSlot(record.seller) === sellerSlot(seller);

/**
 * The consent that serves a job among a number's (one per seller, and the row's own): given after
 * the number's revocation if any, to the job's seller when it names one (47 CFR 64.1200(f)(9)); of
 * those, one that meets `require` before one that does not, then the newest. Undefined: none. Pure.
 */
export function servingConsent(
  consents: readonly ConsentRecord[],
  o: { require: ConsentRequirement; seller?: string | undefined; revokedAt?: number | undefined },
): ConsentRecord | undefined {
  const meets = (c: ConsentRecord) => (o.require !== "written" || c.kind === "written" ? 1 : 0);
  return consents
    .filter((c) => (o.revokedAt === undefined || c.givenAt > o.revokedAt) && givenTo(c, o.seller))
    .sort((a, b) => meets(b) - meets(a) || b.givenAt - a.givenAt)[0];
}

/** Why a job naming `seller` is not served by a number's consents, which name other sellers. Pure. */
export function otherSellerProblem(seller: string, others: readonly ConsentRecord[]): ConsentProblem {
  const named = [...new Set(others.map((c) => c.seller?.trim() || "no seller"))].join(", ");
  return {
    field: "consent seller",
    code: "consent_other_seller",
    message: `no consent given to the seller "${seller.trim()}" (calling.consent.seller): the number's consent names ${named}, and prior express written consent names the seller it is given to`,
  };
}
