import { parsePhoneNumberFromString } from "libphonenumber-js/max";

/**
 * How the simulator writes phones it reads back (audiences, contact lists). The spec shows no
 * format, so a real service may answer `14155550199`, `(415) 555-0199` or `+1 415 555 0199` for
 * the contact created as `+14155550199`: `as-given` (the default) answers what was sent, `mixed`
 * rotates through the others entry by entry.
 */
export type PhoneSpelling = "as-given" | "digits" | "national" | "international" | "mixed";

const ROTATION = ["digits", "national", "international"] as const;

/** `phone` (as stored) spelled the `spelling` way; `index` picks the spelling of `mixed`. Pure. */
export function spellPhone(phone: string, spelling: PhoneSpelling, index = 0): string {
  if (spelling === "as-given") return phone;
  const parsed = parsePhoneNumberFromString(phone);
  if (!parsed) return phone;
  const how = spelling === "mixed" ? ROTATION[index % ROTATION.length]! : spelling;
  if (how === "digits") return parsed.number.slice(1);
  return how === "national" ? parsed.formatNational() : parsed.formatInternational();
}
