import { describe, expect, it } from "vitest";
import { readHeader } from "../../src/ingest/header-reading.ts";
import { headerIndex } from "../../src/ingest/header-row.ts";
import { segment } from "../../src/ingest/header-words.ts";
import { kindOfLabel } from "../../src/ingest/phone-kind.ts";

describe("segment", () => {
  it.each([
    ["personphonemobile", ["person", "phone", "mobile"]],
    ["phone1value", ["phone", "1", "value"]],
    ["mobilephonenumber", ["mobile", "phone", "number"]],
    ["telephone", ["telephone"]],
    ["handynummer", ["handy", "nummer"]],
  ])("%s", (normalized, words) => {
    expect(segment(normalized)).toEqual(words);
  });

  it("refuses a header with an unknown word, and prose", () => {
    expect(segment("notesphonelist")).toBeUndefined();
    expect(segment("phoneticfirstname")).toBeUndefined();
    expect(segment("phone".repeat(13))).toBeUndefined();
  });
});

describe("readHeader: phones", () => {
  it.each([
    ["Phone", "main"],
    ["phone_number", "main"],
    ["number", "main"],
    ["to_number", "main"],
    ["Contact Number", "main"],
    ["Mobile", "mobile"],
    ["Mobile Phone Number", "mobile"],
    ["mobilePhone", "mobile"],
    ["MOBILE_PHONE_NUMBER", "mobile"],
    ["Person - Phone - Mobile", "mobile"],
    ["Phone: iPhone", "mobile"],
    ["WhatsApp", "mobile"],
    ["Téléphone portable", "mobile"],
    ["Handynummer", "mobile"],
    ["Primary Phone", "main"],
    ["Numéro de téléphone", "main"],
    ["Business Phone 2", "work"],
    ["Phone - Work", "work"],
    ["Home Phone", "home"],
    ["Téléphone fixe", "home"],
    ["Car Phone", "other"],
    ["Callback", "other"],
    ["ISDN", "other"],
    ["Company Main Phone", "company"],
    ["Assistant's Phone", "company"],
    ["Asst. Phone", "company"],
    ["Account Phone", "company"],
  ])("%s is a %s phone", (header, kind) => {
    expect(readHeader(header)).toMatchObject({ role: "phone", kind });
  });

  it.each([
    ["Fax", "fax"],
    ["Business Fax", "fax"],
    ["Fax Number", "fax"],
    ["Phone: home fax", "fax"],
    ["Pager", "pager"],
    ["Telex", "telex"],
    ["TTY/TDD Phone", "text telephone"],
  ])("%s is never called (%s)", (header, kind) => {
    expect(readHeader(header)).toEqual({ role: "never", kind });
  });

  it.each([
    "Account Number",
    "Customer Number",
    "No.",
    "Record ID",
    "Notes: phone list from the CRM",
    "Person - Marketing consent phone",
    "Home",
    "Work",
    "Phonetic First Name",
    "Labels",
  ])("%s is not a phone", (header) => {
    expect(readHeader(header).role).not.toBe("phone");
  });

  it("pairs a numbered value column with its label or type column", () => {
    expect(readHeader("Phone 1 - Value")).toEqual({ role: "phone", kind: "main", group: "phone1" });
    expect(readHeader("Phone 1 - Label")).toEqual({ role: "phone_label", group: "phone1" });
    expect(readHeader("Phone 2 - Type")).toEqual({ role: "phone_label", group: "phone2" });
  });
});

describe("readHeader: other fields", () => {
  it.each([
    ["Given Name", "first_name"],
    ["Person - First name", "first_name"],
    ["Prénom", "first_name"],
    ["Family Name", "last_name"],
    ["Nom", "last_name"],
    ["Person - Name", "full_name"],
    ["Contact", "full_name"],
    ["E-mail 2 Address", "email"],
    ["Email: work", "email"],
    ["Additional email addresses", "email"],
    ["Job Title", "job_title"],
    ["Organization 1 - Title", "job_title"],
    ["Title", "job_title"],
    ["NOTES", "description"],
    ["Lead Status", "lead_status"],
  ])("%s feeds %s", (header, field) => {
    expect(readHeader(header)).toMatchObject({ role: "field", field });
  });

  it("a better name scores lower: Job Title before Title, Email before Secondary Email, E-mail 1 before 2", () => {
    const score = (h: string) => (readHeader(h) as { score: number }).score;
    expect(score("Job Title")).toBeLessThan(score("Title"));
    expect(score("Organization Title")).toBeLessThan(score("Title"));
    expect(score("Email")).toBeLessThan(score("Secondary Email"));
    expect(score("E-mail 1 - Value")).toBeLessThan(score("E-mail 2 - Value"));
  });

  it("someone else's fields, and label columns, are set apart", () => {
    expect(readHeader("Organization Name")).toEqual({ role: "other_party", field: "full_name" });
    expect(readHeader("Assistant's Name")).toEqual({ role: "other_party", field: "full_name" });
    expect(readHeader("E-mail Type")).toEqual({ role: "label_of", field: "email" });
    expect(readHeader("Additional Name")).toEqual({ role: "none" });
    expect(readHeader("Email Opt Out")).toEqual({ role: "none" });
  });
});

describe("kindOfLabel", () => {
  it.each([
    ["Mobile", "mobile"],
    ["* Mobile", "mobile"],
    ["iPhone", "mobile"],
    ["Móvil", "mobile"],
    ["Work", "work"],
    ["Work Fax", "fax"],
    ["Pager", "pager"],
    ["Main", "main"],
    ["", "main"],
    ["Grandma", "other"],
    // A label cell is a file's: one named like an object's property is a label like any (issue 43).
    ["constructor", "other"],
    ["Constructor Mobile", "mobile"],
  ])("%j -> %s", (label, kind) => {
    expect(kindOfLabel(label)).toBe(kind);
  });
});

describe("headerIndex", () => {
  const linkedIn = [
    ["Notes:"],
    ["When exporting your connection data, ..."],
    ["First Name", "Last Name", "URL", "Email Address"],
  ];

  it("the first row when it names a phone", () => {
    expect(headerIndex([["Name", "Phone"]], false)).toBe(0);
  });

  it("past a preamble of one- or two-cell lines", () => {
    expect(headerIndex(linkedIn, false)).toBe(2);
    expect(headerIndex([["Leads, May 2024"], ["Name", "Mobile"]], false)).toBe(1);
  });

  it("waits for more rows, then falls back on the first", () => {
    expect(headerIndex([["Notes:"]], false)).toBeUndefined();
    expect(headerIndex([["Notes:"]], true)).toBe(0);
  });

  it("a data row is not taken for the header: it must be wider than the lines above it", () => {
    expect(
      headerIndex(
        [
          ["Name", "Type"],
          ["Ana", "Mobile"],
        ],
        true,
      ),
    ).toBe(0);
  });

  it("an explicitly mapped phone column marks the header", () => {
    expect(headerIndex([["Report"], ["Who", "Cellular #"]], false, { phone: "Cellular #" })).toBe(1);
  });
});
