import { describe, expect, it } from "vitest";
import { ContactCreate } from "../../src/api/index.ts";
import { checkRow, mapColumns, type RowOptions } from "../../src/ingest/index.ts";

const columns = mapColumns(["First Name", "Last Name", "Phone", "Email", "Notes"], "f.csv");
const options: RowOptions = { defaultCountry: "US", emailPolicy: "reject", maxFieldChars: 100 };

describe("checkRow", () => {
  it("trims every kind of space, lower-cases e-mails, gives E.164 and a contact the API accepts", () => {
    const check = checkRow(
      ["\u00A0Ana\t", " Lima\u202F", " (415) 555-0123 ", " ANA@Example.COM ", "  "],
      columns,
      options,
    );
    expect(check).toEqual({
      ok: true,
      phone: "+14155550123",
      phoneColumn: "Phone",
      contact: { first_name: "Ana", last_name: "Lima", phone: "+14155550123", email: "ana@example.com" },
      warnings: [],
    });
    if (check.ok) expect(ContactCreate.safeParse(check.contact).success).toBe(true);
  });

  it("needs a first name, a last name or an e-mail besides the phone", () => {
    expect(checkRow(["", "", "4155550123", "", "note"], columns, options)).toMatchObject({
      ok: false,
      issues: [{ code: "name_or_email_missing" }],
    });
    expect(checkRow(["", "", "4155550123", "a@b.co", ""], columns, options).ok).toBe(true);
  });

  it("names every problem of a row", () => {
    const check = checkRow(["Ana", "", "12", "not-mail", ""], columns, options);
    expect(check.ok).toBe(false);
    if (!check.ok)
      expect(check.issues.map((i) => [i.field, i.code])).toEqual([
        ["phone", "phone_too_short"],
        ["email", "email_invalid"],
      ]);
  });

  it("with the drop policy, a bad e-mail is dropped and reported, the row kept", () => {
    const check = checkRow(["Ana", "", "4155550123", "not-mail", ""], columns, {
      ...options,
      emailPolicy: "drop",
    });
    expect(check).toMatchObject({
      ok: true,
      contact: { first_name: "Ana" },
      warnings: [{ code: "email_dropped", value: "not-mail" }],
    });
    if (check.ok) expect(check.contact.email).toBeUndefined();
  });

  it("splits a full name", () => {
    const byName = mapColumns(["Name", "Phone"], "f.csv");
    expect(checkRow(["Ana Maria  Lima", "4155550123"], byName, options)).toMatchObject({
      contact: { first_name: "Ana", last_name: "Maria  Lima" },
    });
  });

  it("rejects rows with more fields than the header and values over the limit", () => {
    expect(checkRow(["Ana", "L", "4155550123", "", "", "extra"], columns, options)).toMatchObject({
      ok: false,
      issues: [{ code: "too_many_fields" }],
    });
    expect(checkRow(["Ana", "L", "4155550123", "", "x".repeat(101)], columns, options)).toMatchObject({
      ok: false,
      issues: [{ field: "description", code: "value_too_long" }],
    });
  });

  it("treats missing trailing cells as empty", () => {
    expect(checkRow(["Ana", "", "4155550123"], columns, options).ok).toBe(true);
  });
});
