import {
  type CountryCode,
  isSupportedCountry,
  ParseError,
  parsePhoneNumberWithError,
  validatePhoneNumberLength,
} from "libphonenumber-js/max";

export type PhoneErrorCode =
  | "phone_missing"
  | "phone_not_a_number"
  | "phone_too_short"
  | "phone_too_long"
  | "phone_invalid_for_country"
  | "phone_no_country"
  | "phone_excel_scientific"
  | "phone_excel_decimal"
  | "phone_lost_leading_zero";

export type PhoneResult = { ok: true; e164: string } | { ok: false; code: PhoneErrorCode; message: string };

const SCIENTIFIC = /^\+?\d+(?:[.,]\d+)?[eE]\+?\d+$/;
const DECIMAL = /^\+?\d+[.,]0+$/;
const DIGITS_ONLY = /^\d+$/;

const fail = (code: PhoneErrorCode, message: string): PhoneResult => ({ ok: false, code, message });

function parse(text: string, country: CountryCode | undefined) {
  try {
    return parsePhoneNumberWithError(text, { defaultCountry: country, extract: false });
  } catch (error) {
    if (error instanceof ParseError) return error.message;
    throw error;
  }
}

/** A phone as written in a file, as E.164 (`+14155550123`), or why not. Pure. */
export function normalizePhone(raw: string, defaultCountry: CountryCode | undefined): PhoneResult {
  if (raw === "") return fail("phone_missing", "no phone number");
  if (SCIENTIFIC.test(raw)) {
    return fail(
      "phone_excel_scientific",
      `"${raw}" is a number in scientific notation (Excel): its last digits are lost; export the column as text`,
    );
  }
  if (DECIMAL.test(raw)) {
    return fail(
      "phone_excel_decimal",
      `"${raw}" ends in a decimal part (Excel number format); export the column as text`,
    );
  }
  const parsed = parse(raw, defaultCountry);
  if (typeof parsed === "string") return failureOf(parsed, raw, defaultCountry);
  if (parsed.isValid()) return { ok: true, e164: parsed.number };

  const digits = raw.replace(/[\s().-]/g, "");
  if (DIGITS_ONLY.test(digits)) {
    // Spreadsheets drop a leading "+": 447911123456 is +447911123456.
    const international = parse(`+${digits}`, undefined);
    if (typeof international !== "string" && international.isValid())
      return { ok: true, e164: international.number };
    const withZero = parse(`0${digits}`, defaultCountry);
    if (typeof withZero !== "string" && withZero.isValid()) {
      return fail(
        "phone_lost_leading_zero",
        `"${raw}" is valid only with a leading 0, which a spreadsheet may have dropped; check it`,
      );
    }
  }
  const length = validatePhoneNumberLength(raw, defaultCountry);
  if (length === "TOO_SHORT")
    return fail(
      "phone_too_short",
      `"${raw}" is too short for a phone number of ${parsed.country ?? defaultCountry}`,
    );
  if (length === "TOO_LONG")
    return fail(
      "phone_too_long",
      `"${raw}" is too long for a phone number of ${parsed.country ?? defaultCountry}`,
    );
  return fail(
    "phone_invalid_for_country",
    `"${raw}" is not a valid phone number${parsed.country ? ` of ${parsed.country}` : defaultCountry ? ` of ${defaultCountry}` : ""}`,
  );
}

function failureOf(reason: string, raw: string, country: CountryCode | undefined): PhoneResult {
  switch (reason) {
    case "TOO_SHORT":
      return fail("phone_too_short", `"${raw}" is too short for a phone number`);
    case "TOO_LONG":
      return fail("phone_too_long", `"${raw}" is too long for a phone number`);
    case "INVALID_COUNTRY":
      return fail(
        "phone_no_country",
        country
          ? `"${raw}" has no valid country code`
          : `"${raw}" has no country code (+...) and no default country is set`,
      );
    default:
      return fail("phone_not_a_number", `"${raw}" is not a phone number`);
  }
}

export const isCountryCode = (code: string): code is CountryCode => isSupportedCountry(code);
