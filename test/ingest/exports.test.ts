/**
 * Contact exports as operators have them, one fixture per layout family (test/fixtures/exports),
 * written from each tool's documented columns with fictional people and numbers. Each test says what
 * an operator relies on: which column supplied each phone, the counts, and why a row was refused.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  ContactFileReader,
  type IngestOptions,
  type RowOutcome,
  validateFile,
} from "../../src/ingest/index.ts";
import { tempDir } from "../support/files.ts";

const FIXTURES = fileURLToPath(new URL("../fixtures/exports/", import.meta.url));
const out = tempDir("vcw-exports-");

async function read(name: string, options: Partial<IngestOptions> = {}) {
  const reader = await ContactFileReader.open(join(FIXTURES, name), { defaultCountry: "US", ...options });
  const outcomes: RowOutcome[] = [];
  for await (const outcome of reader) outcomes.push(outcome);
  const t = reader.totals;
  expect(t.total).toBe(t.valid + t.rejected + t.duplicates + t.skipped);
  return { info: reader.info, totals: t, outcomes };
}

/** Each row as an operator reads it: where its phone came from, or why it was refused. */
const rows = (outcomes: RowOutcome[]) =>
  outcomes.map((o) => {
    if (o.kind === "valid") return `${o.line} ${o.phone} from ${o.phoneColumn}`;
    if (o.kind === "rejected") return `${o.line} rejected ${o.issues.map((i) => i.code).join(", ")}`;
    return `${o.line} ${o.kind}`;
  });
const issue = (o: RowOutcome | undefined) => (o?.kind === "rejected" ? o.issues[0] : undefined);
const warning = (o: RowOutcome | undefined) => (o?.kind === "valid" ? o.warnings[0] : undefined);

describe("Google Contacts", () => {
  it("current export: labels pick the mobile row by row, faxes are never called, ::: cells split", async () => {
    const { info, outcomes, totals } = await read("google-contacts.csv");
    expect(info.columns.phones.map((p) => [p.header, info.headers[p.labelColumn!]])).toEqual([
      ["Phone 1 - Value", "Phone 1 - Label"],
      ["Phone 2 - Value", "Phone 2 - Label"],
    ]);
    expect(info.columns.mapped).toMatchObject({
      first_name: "First Name",
      last_name: "Last Name",
      email: "E-mail 1 - Value",
      job_title: "Organization Title",
    });
    expect(rows(outcomes)).toEqual([
      "2 +14155550101 from Phone 1 - Value", // Mobile before Work
      "3 +14155550112 from Phone 2 - Value", // Phone 2 is the Mobile here
      "4 +14155550103 from Phone 1 - Value", // first of "a ::: b"
      "5 +14155550114 from Phone 2 - Value", // Phone 1 is a Work Fax
      "6 +14155550115 from Phone 2 - Value", // the Mobile is too short
      "7 rejected phone_never_called",
      "8 rejected phone_missing",
    ]);
    expect(outcomes[2]).toMatchObject({ contact: { email: "cleo@example.com" } });
    expect(warning(outcomes[4])).toMatchObject({ code: "phone_fallback", value: "555-01" });
    expect(warning(outcomes[4])!.message).toMatch(
      /Phone 1 - Value: "555-01" is too short.*"Phone 2 - Value" is used/,
    );
    expect(issue(outcomes[5])!.message).toMatch(/labelled "Work Fax": a fax number is never called/);
    expect(issue(outcomes[6])!.message).toBe('no phone number in "Phone 1 - Value", "Phone 2 - Value"');
    expect(totals).toMatchObject({ total: 7, valid: 5, rejected: 2 });
  });

  it("legacy export: Type columns, the full Name dropped for Given/Family, Organization 1 - Title", async () => {
    const { info, outcomes } = await read("google-contacts-legacy.csv");
    expect(info.columns.mapped).toMatchObject({
      first_name: "Given Name",
      last_name: "Family Name",
      job_title: "Organization 1 - Title",
      phone: "Phone 1 - Value",
    });
    expect(info.columns.ignored.map((n) => n.header)).toEqual(
      expect.arrayContaining(["Name", "Occupation", "Organization 1 - Name", "E-mail 1 - Type"]),
    );
    expect(rows(outcomes)).toEqual([
      "2 +14155550131 from Phone 2 - Value", // Mobile beats Home
      "3 +442079460122 from Phone 1 - Value",
      "4 rejected phone_not_a_number", // "call me", and a Pager
    ]);
    expect(outcomes[0]).toMatchObject({ contact: { job_title: "Art Director" } });
    expect(issue(outcomes[2])!.message).toMatch(/"call me" is not a phone number.*labelled "Pager"/);
  });
});

describe("Outlook", () => {
  it("desktop (Windows-1252): Title is the honorific, Job Title the job; faxes and pagers ignored", async () => {
    const { info, outcomes } = await read("outlook-desktop.csv", { defaultCountry: "GB" });
    expect(info.encoding).toBe("windows-1252");
    expect(info.columns.mapped).toMatchObject({ job_title: "Job Title", phone: "Mobile Phone" });
    const why = Object.fromEntries(info.columns.ignored.map((n) => [n.header, n.why]));
    expect(why.Title).toMatch(/"Job Title" is preferred/);
    expect(why["Business Fax"]).toMatch(/fax number: never called/);
    expect(why.Pager).toMatch(/pager number: never called/);
    expect(info.columns.phones.slice(0, 3).map((p) => p.header)).toEqual([
      "Mobile Phone",
      "Primary Phone",
      "Business Phone",
    ]);
    expect(rows(outcomes)).toEqual([
      "2 +14155550141 from Mobile Phone",
      "3 +442079460142 from Business Phone",
      "4 rejected phone_missing", // only a Home Fax and a Pager
    ]);
    expect(outcomes[0]).toMatchObject({
      contact: { first_name: "Zoë", last_name: "Ångström", job_title: "Head of Sales" },
    });
  });

  it("Outlook.com: Primary before Business, a company line last", async () => {
    const { info, outcomes } = await read("outlook-com.csv");
    expect(info.bom).toBe(true);
    expect(rows(outcomes)).toEqual([
      "2 +14155550171 from Primary Phone",
      "3 +14155550172 from Home Phone", // before the company's main line and the assistant
      "4 +14155550100 from Company Main Phone",
      "5 rejected phone_missing",
    ]);
    expect(info.columns.phones.at(-1)).toMatchObject({ kind: "company" });
  });
});

describe("CRMs", () => {
  it("HubSpot: Mobile Phone Number first, Phone Number next; lifecycle and lead status kept", async () => {
    const { outcomes } = await read("hubspot.csv");
    expect(rows(outcomes)).toEqual([
      "2 +14155550211 from Mobile Phone Number",
      "3 +14155550202 from Phone Number",
      "4 rejected phone_missing", // a Fax Number only
    ]);
    expect(outcomes[1]).toMatchObject({
      contact: {
        email: "rosa@example.com",
        lifecycle_stage: "Marketing Qualified Lead",
        lead_status: "Open",
      },
    });
  });

  it("Salesforce report: the footer is not contacts, a contact without phone is", async () => {
    const { outcomes, totals } = await read("salesforce-report.csv");
    expect(rows(outcomes)).toEqual([
      "2 +14155550311 from Mobile",
      "3 +14155550302 from Phone",
      "4 rejected phone_missing",
    ]);
    expect(totals).toMatchObject({ total: 3, valid: 2, rejected: 1, blankLines: 2, footerLines: 5 });
    expect(issue(outcomes[2])!.message).toBe('no phone number in "Mobile", "Phone"');
  });

  it("Zoho CRM: Title alone is the job title; Full Name, Fax and Secondary Email set aside", async () => {
    const { info, outcomes } = await read("zoho-crm.csv", { defaultCountry: "GB" });
    expect(info.columns.mapped).toMatchObject({ job_title: "Title", email: "Email", phone: "Mobile" });
    expect(info.columns.ignored.map((n) => n.header)).toEqual(
      expect.arrayContaining(["Full Name", "Fax", "Secondary Email", "Account Name"]),
    );
    expect(rows(outcomes)).toEqual([
      "2 +14155550401 from Mobile",
      "3 +442079460402 from Home Phone",
      "4 +442079460413 from Asst Phone", // the Mobile is cut short: the assistant is the last resort
    ]);
    expect(warning(outcomes[2])).toMatchObject({ code: "phone_fallback", value: "07700 9004" });
  });

  it("Pipedrive: Person - Phone - <kind> columns, comma-separated values", async () => {
    const { info, outcomes } = await read("pipedrive.csv");
    expect(info.columns.mapped).toMatchObject({
      first_name: "Person - First name",
      last_name: "Person - Last name",
      email: "Person - Email - Work",
      job_title: "Person - Job title",
    });
    expect(rows(outcomes)).toEqual([
      "2 +14155550521 from Person - Phone - Mobile",
      "3 +14155550502 from Person - Phone - Work", // "n/a, +1 415 555 0502"
      "4 +14155550503 from Person - Phone - Home",
    ]);
    expect(info.headers).toContain("Person - Marketing status");
    expect(info.columns.unknown).toContain("Person - Organization");
  });
});

describe("address books and mailing lists", () => {
  it("iCloud through a vCard-to-CSV converter: colon-labelled columns", async () => {
    const { info, outcomes } = await read("icloud-vcard.csv");
    expect(info.columns.phones.map((p) => [p.header, p.kind])).toEqual([
      ["Phone: iPhone", "mobile"],
      ["Phone: mobile", "mobile"],
      ["Phone: main", "main"],
      ["Phone: work", "work"],
      ["Phone: home", "home"],
    ]);
    expect(rows(outcomes)).toEqual([
      "2 +14155550601 from Phone: iPhone",
      "3 +14155550612 from Phone: main",
      "4 rejected phone_missing", // a home fax only
    ]);
  });

  it("Mailchimp: members who gave no phone are refused one by one, not the file", async () => {
    const { outcomes } = await read("mailchimp.csv");
    expect(rows(outcomes)).toEqual([
      "2 +14155550701 from Phone Number",
      "3 rejected phone_missing",
      "4 +14155550703 from Phone Number",
    ]);
  });

  it("LinkedIn connections: the header is found past the Notes preamble; the file has no phone column", async () => {
    const error = await read("linkedin-connections.csv").catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "no_phone_column" });
    expect((error as Error).message).toContain(
      '(columns: "First Name", "Last Name", "URL", "Email Address", "Company", "Position", "Connected On")',
    );
  });
});

describe("spreadsheets saved as CSV, and calling lists", () => {
  it("Excel CSV UTF-8: numbers without their +, scientific notation, a totals line", async () => {
    const { info, outcomes, totals } = await read("excel-csv-utf8.csv");
    expect(info).toMatchObject({ encoding: "utf-8", bom: true, linebreak: "\r\n" });
    expect(rows(outcomes)).toEqual([
      "2 +14155550801 from Phone",
      "3 +442079460802 from Phone",
      "4 rejected phone_excel_scientific",
    ]);
    expect(totals).toMatchObject({ total: 3, footerLines: 1 });
  });

  it("Excel, French locale: Windows-1252, semicolons, Nom/Prénom, Téléphone portable before fixe", async () => {
    const { info, outcomes } = await read("excel-fr-semicolon.csv", { defaultCountry: "GB" });
    expect(info).toMatchObject({ encoding: "windows-1252", delimiter: ";" });
    expect(info.columns.mapped).toMatchObject({ first_name: "Prénom", last_name: "Nom", email: "E-mail" });
    expect(rows(outcomes)).toEqual([
      "2 +442079460911 from Téléphone portable",
      "3 +442079460902 from Téléphone fixe",
      "4 rejected phone_too_short",
    ]);
    expect(outcomes[0]).toMatchObject({ contact: { first_name: "Aurélie", last_name: "Lefèvre" } });
  });

  it("a batch-calling list: a plain number column, a full name, duplicates", async () => {
    const { info, outcomes } = await read("batch-calling.csv");
    expect(info.columns.mapped).toMatchObject({ phone: "number", full_name: "name" });
    expect(rows(outcomes)).toEqual([
      "2 +14155551001 from number",
      "3 +442079461002 from number",
      "4 +14155551003 from number",
      "5 rejected phone_too_short",
      "6 duplicate",
    ]);
  });

  it("the error report names the column tried and the one used", async () => {
    const errorsPath = join(out, "google.errors.csv");
    const summary = await validateFile(
      join(FIXTURES, "google-contacts.csv"),
      { defaultCountry: "US" },
      { errorsPath },
    );
    expect(summary.phoneColumns).toEqual(["Phone 1 - Value", "Phone 2 - Value"]);
    const lines = readFileSync(errorsPath, "utf8").trim().split("\r\n");
    expect(lines).toHaveLength(4); // header, one fallback warning, two rejected rows
    expect(lines[1]).toMatch(/,6,phone,555-01,phone_fallback,.*"Phone 2 - Value"" is used/);
    expect(lines[3]).toMatch(/,8,phone,,phone_missing,/);
  });
});
