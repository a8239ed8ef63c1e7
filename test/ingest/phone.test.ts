import { describe, expect, it } from "vitest";
import { normalizePhone } from "../../src/ingest/phone.ts";

describe("normalizePhone", () => {
  it.each([
    ["(415) 555-0123", "US", "+14155550123"],
    ["415.555.0123", "US", "+14155550123"],
    ["+1 415 555 0123", undefined, "+14155550123"],
    ["+44 7911 123456", "US", "+447911123456"],
    ["07911 123456", "GB", "+447911123456"],
    ["030 1234567", "DE", "+49301234567"],
    ["447911123456", "US", "+447911123456"], // a spreadsheet dropped the "+"
    ["+1-415-555-0123 ext. 7", "US", "+14155550123"],
  ] as const)("%s (%s) -> %s", (raw, country, e164) => {
    expect(normalizePhone(raw, country)).toEqual({ ok: true, e164 });
  });

  it.each([
    ["", "US", "phone_missing"],
    ["4.47911E+11", "GB", "phone_excel_scientific"],
    ["1.4155550123e10", "US", "phone_excel_scientific"],
    ["4155550123.0", "US", "phone_excel_decimal"],
    ["call me", "US", "phone_not_a_number"],
    ["12", "US", "phone_too_short"],
    ["+1 415 555 0123 4567 8901", "US", "phone_too_long"],
    ["(415) 555-012", "US", "phone_too_short"],
    ["+1 100 555 0123", "US", "phone_invalid_for_country"],
    ["4155550123", undefined, "phone_no_country"],
  ] as const)("%s (%s) is rejected as %s", (raw, country, code) => {
    const result = normalizePhone(raw, country);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.code).toBe(code);
      expect(result.message).toMatch(/\S/);
    }
  });

  it("says when a lost leading zero is the likely cause", () => {
    // Italian landlines keep their 0; a spreadsheet that read the column as numbers drops it.
    const result = normalizePhone("612345678", "IT");
    expect(result).toMatchObject({ ok: false, code: "phone_lost_leading_zero" });
  });
});
