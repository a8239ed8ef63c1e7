import type { CountryCode } from "libphonenumber-js/max";
import type { ContactCreate } from "../api/schemas/contact.ts";
import { pickEmail } from "./email-pick.ts";
import { splitFullName } from "./full-name.ts";
import type { ColumnMap } from "./headers.ts";
import { fallbackMessage, noPhoneMessage, pickPhone } from "./phone-pick.ts";
import { cleanCell } from "./text.ts";

export interface RowOptions {
  /** Country of phone numbers written without a country code. */
  defaultCountry: CountryCode | undefined;
  /** An invalid e-mail rejects the row, or is dropped from it. */
  emailPolicy: "reject" | "drop";
  /** Longest value accepted in a cell. */
  maxFieldChars: number;
}

export interface RowIssue {
  /** Contact field (or column header) concerned; empty for the whole row. */
  field: string;
  value: string;
  code: string;
  message: string;
}

export type RowCheck =
  /** `phoneColumn`: the header of the column that supplied the phone. */
  | { ok: true; contact: ContactCreate; phone: string; phoneColumn: string; warnings: RowIssue[] }
  | { ok: false; issues: RowIssue[] };

/** Checks and normalizes one data row. Pure. */
export function checkRow(cells: readonly string[], columns: ColumnMap, options: RowOptions): RowCheck {
  const issues: RowIssue[] = [];
  const warnings: RowIssue[] = [];
  if (cells.length > columns.fields.length) {
    issues.push({
      field: "",
      value: "",
      code: "too_many_fields",
      message: `the row has ${cells.length} fields, the header ${columns.fields.length}: check its quoting`,
    });
  }
  const contact = plainFields(cells, columns, options, issues);
  const phone = pickPhone(
    cells,
    columns.phones,
    columns.phonesLabelled,
    options.defaultCountry,
    options.maxFieldChars,
  );
  if (phone.ok) contact.phone = phone.e164;
  const phoneIssue = phoneIssueOf(phone, columns.phones);
  if (phoneIssue) (phone.ok ? warnings : issues).push(phoneIssue);
  addEmail(contact, cells, columns, options, { issues, warnings });
  if (
    !contact.first_name &&
    !contact.last_name &&
    !contact.email &&
    !issues.some((i) => i.field === "email")
  ) {
    issues.push({
      field: "",
      value: "",
      code: "name_or_email_missing",
      message: "a contact needs a first name, a last name or an e-mail besides the phone",
    });
  }
  if (issues.length > 0 || !phone.ok) return { ok: false, issues };
  return {
    ok: true,
    contact: contact as ContactCreate,
    phone: phone.e164,
    phoneColumn: phone.header,
    warnings,
  };
}

/** The cells of the fields other than phone and e-mail (picked across their columns), a full name split. */
function plainFields(
  cells: readonly string[],
  columns: ColumnMap,
  options: RowOptions,
  issues: RowIssue[],
): Record<string, string> {
  const contact: Record<string, string> = {};
  let fullName = "";
  for (let i = 0; i < columns.fields.length; i++) {
    const field = columns.fields[i];
    if (field === undefined || field === "phone") continue;
    const value = cleanCell(cells[i]);
    if (value === "") continue;
    if (value.length > options.maxFieldChars) {
      issues.push({
        field,
        value: `${value.slice(0, 50)}…`,
        code: "value_too_long",
        message: `${field} is ${value.length} characters long; the limit is ${options.maxFieldChars}`,
      });
      continue;
    }
    if (field === "email") continue; // picked below, across the e-mail columns
    if (field === "full_name") fullName = value;
    else contact[field] = value;
  }
  if (fullName) Object.assign(contact, splitFullName(fullName));
  return contact;
}

/** A phone taken from a later column is a warning; no usable phone is the row's issue. */
function phoneIssueOf(
  phone: ReturnType<typeof pickPhone>,
  phones: ColumnMap["phones"],
): RowIssue | undefined {
  const first = phone.refused[0];
  if (phone.ok) {
    if (!first) return undefined;
    return {
      field: "phone",
      value: first.value,
      code: "phone_fallback",
      message: fallbackMessage(phone.refused, phone.header, phones.length),
    };
  }
  return {
    field: "phone",
    value: first?.value ?? "",
    code: first?.code ?? "phone_missing",
    message: noPhoneMessage(phone.refused, phones),
  };
}

/** The first valid e-mail; an invalid one rejects the row or is dropped from it, per the options. */
function addEmail(
  contact: Record<string, string>,
  cells: readonly string[],
  columns: ColumnMap,
  options: RowOptions,
  found: { issues: RowIssue[]; warnings: RowIssue[] },
): void {
  const email = pickEmail(cells, columns.emails, options.maxFieldChars);
  if (email?.ok) {
    contact.email = email.email;
    const first = email.refused[0];
    if (first)
      found.warnings.push({
        field: "email",
        value: first.value,
        code: "email_fallback",
        message: `${first.message}; the e-mail of "${email.header}" is used`,
      });
  } else if (email) {
    const issue = { field: "email", value: email.value, code: "email_invalid", message: email.message };
    if (options.emailPolicy === "reject") found.issues.push(issue);
    else
      found.warnings.push({
        ...issue,
        code: "email_dropped",
        message: `${email.message}; dropped, the row is kept`,
      });
  }
}
