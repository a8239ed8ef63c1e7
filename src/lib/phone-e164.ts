import { type CountryCode, parsePhoneNumberFromString } from "libphonenumber-js/max";

const E164 = /^\+[1-9]\d{6,14}$/;
const DIGITS = /^\d+$/;

/**
 * A phone as the service wrote it (an audience entry, a contact list), as E.164: numbers without
 * a country code are read in `country`; undefined when it is no phone number. Pure. The service
 * shows no format (docs/spec-gaps.md), so `14155550199`, `(415) 555-0199` and `+1 415 555 0199`
 * are all `+14155550199` in US. Text already in E.164 is taken as it is (the usual case, and cheap).
 */
export function e164OfServicePhone(raw: string, country?: CountryCode): string | undefined {
  const text = raw.trim();
  if (E164.test(text)) return text;
  const parsed = parsePhoneNumberFromString(text, country ? { defaultCountry: country } : {});
  if (parsed?.isValid()) return parsed.number;
  // A dropped "+": 447911123456 is +447911123456 (as ingest/phone.ts reads files).
  const digits = text.replace(/[\s().-]/g, "");
  if (DIGITS.test(digits)) {
    const international = parsePhoneNumberFromString(`+${digits}`);
    if (international?.isValid()) return international.number;
  }
  return parsed?.isPossible() ? parsed.number : undefined;
}
