import type { SkipReason } from "./outcome.ts";
import type { PhoneErrorCode } from "./phone.ts";

/** Codes a row's check gives besides the phone's (row.ts, phone-pick.ts, the import's refusals). */
type RowCode =
  | "too_many_fields"
  | "name_or_email_missing"
  | "value_too_long"
  | "email_invalid"
  | "email_dropped"
  | "email_fallback"
  | "phone_fallback"
  | "phone_never_called"
  | "service_rejected"
  | "duplicate";

/** Why the calling rules set a valid contact aside (pipeline/calling/skip-reasons.ts). */
type PlanCode = "frequency_cap" | "outside_hours" | "call_by_passed" | "no_rule_set";

/**
 * Every reason code a row is rejected, warned about or set aside for, in words a manager reads: the
 * one table the report, the CLI and the pages use (the code stays in files and JSON, for scripts).
 * The compiler holds it complete for the codes it knows by type.
 */
export const REASON_WORDS = {
  phone_missing: "no phone number",
  phone_not_a_number: "phone is not a number",
  phone_too_short: "phone too short",
  phone_too_long: "phone too long",
  phone_invalid_for_country: "phone not valid for its country",
  phone_no_country: "phone without a country code",
  phone_excel_scientific: "phone in scientific notation (Excel)",
  phone_excel_decimal: "phone with a decimal part (Excel)",
  phone_lost_leading_zero: "phone missing its leading 0",
  too_many_fields: "more cells than the header",
  name_or_email_missing: "no name or e-mail",
  value_too_long: "a value too long",
  email_invalid: "e-mail not valid",
  email_dropped: "e-mail not valid (dropped)",
  email_fallback: "e-mail from another column",
  phone_fallback: "phone from another column",
  phone_never_called: "a phone labelled never to call",
  service_rejected: "refused by the service",
  duplicate: "repeated in the file",
  repeated_header: "the header repeated",
  opted_out: "opted out",
  recently_called: "called recently",
  do_not_call: "on a do-not-call list",
  consent_missing: "no consent on record",
  consent_invalid: "consent time not readable",
  consent_not_written: "consent not written",
  consent_revoked: "consent revoked",
  consent_other_seller: "consent given to another seller",
  frequency_cap: "over a frequency cap",
  outside_hours: "no calling hours left",
  call_by_passed: "past its call-by date",
  no_rule_set: "no calling rules for where they are",
} as const satisfies Record<PhoneErrorCode | RowCode | SkipReason | PlanCode, string>;

/** A code in words; a code no version of the table knows (a newer writer's) reads as its words split. */
export const reasonWords = (code: string): string =>
  (Object.hasOwn(REASON_WORDS, code) ? (REASON_WORDS as Record<string, string>)[code] : undefined) ??
  code.replaceAll("_", " ");
