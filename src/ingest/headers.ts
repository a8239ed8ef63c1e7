import type { EmailColumn } from "./email-pick.ts";
import { type MappedField, normalizeHeader } from "./field-synonyms.ts";
import { type HeaderReading, readHeader, turnedHeader } from "./header-reading.ts";
import { IngestFileError } from "./ingest-file-error.ts";
import { ordinal, type PhoneKind, rankOf } from "./phone-kind.ts";

export * from "./field-synonyms.ts";

/** `field -> header as written in the file`; wins over the synonyms and patterns. */
export type ExplicitMapping = Partial<Record<MappedField, string>>;

/** A column that may supply the phone; a row takes the first valid number in `ColumnMap.phones` order. */
export interface PhoneColumn {
  column: number;
  header: string;
  kind: PhoneKind;
  /** Column whose cell says, row by row, which kind of number this one holds ("Phone 1 - Label"). */
  labelColumn: number | undefined;
}

/** A column and why it was chosen, or why not. */
export interface ColumnNote {
  header: string;
  field: MappedField | undefined;
  why: string;
}

export interface ColumnMap {
  /** For each column of the file, the field it feeds, or undefined. Every phone column says "phone". */
  fields: (MappedField | undefined)[];
  /** Field -> header, for reporting; for the phone, the column tried first. */
  mapped: Partial<Record<MappedField, string>>;
  /** Headers that feed no field: kept for the error report, not sent. */
  unknown: string[];
  /** Phone columns, in the order they are tried. */
  phones: PhoneColumn[];
  /** E-mail columns, best first: a row takes the first valid address (iCloud's "Email: Home", "Email: Work"). */
  emails: EmailColumn[];
  /** Some phone column has a label column: rows reorder the phones by their labels. */
  phonesLabelled: boolean;
  /** Each column used, and why, in field order. */
  chosen: ColumnNote[];
  /** Columns that looked like a field but are not used, and why. */
  ignored: ColumnNote[];
}

const KIND_WHY: Record<PhoneKind, string> = {
  mobile: "a mobile number",
  main: "a main or unlabelled number",
  work: "a work number",
  home: "a home number",
  other: "another number",
  company: "an organization's or assistant's number",
};
const NEVER_WHY = "never called";
const FIELD_ORDER: MappedField[] = [
  "first_name",
  "last_name",
  "full_name",
  "phone",
  "email",
  "job_title",
  "description",
  "lifecycle_stage",
  "lead_status",
];

const quote = (header: string) => `"${header}"`;
/** Says how a `Section: Field` header was read. */
const turned = (header: string) => {
  const as = turnedHeader(header);
  return as === undefined ? "" : ` (read as "${as}")`;
};
/** A field as words: "job title"; a full name is a name. */
const fieldName = (field: MappedField) => (field === "full_name" ? "name" : field.replace("_", " "));

function explicitColumns(headers: readonly string[], file: string, explicit: ExplicitMapping) {
  const normalized = headers.map(normalizeHeader);
  const byColumn = new Map<number, MappedField>();
  for (const [field, header] of Object.entries(explicit) as [MappedField, string][]) {
    const index = normalized.indexOf(normalizeHeader(header));
    if (index < 0) {
      throw new IngestFileError(
        "unknown_mapped_column",
        file,
        `the mapping sends column "${header}" to ${field}, but the file has no such column (columns: ${headers.join(", ")})`,
      );
    }
    const other = byColumn.get(index);
    if (other !== undefined) {
      throw new IngestFileError(
        "duplicate_mapping",
        file,
        `the mapping sends column "${headers[index]}" to both ${other} and ${field}; a column feeds one field`,
      );
    }
    byColumn.set(index, field);
  }
  return byColumn;
}

/** Phone columns by kind, then by position; label columns paired by group. */
function rankPhones(
  readings: HeaderReading[],
  headers: readonly string[],
  taken: ReadonlyMap<number, MappedField>,
): PhoneColumn[] {
  const labels = new Map<string, number>();
  readings.forEach((r, i) => {
    if (r.role === "phone_label" && !labels.has(r.group)) labels.set(r.group, i);
  });
  const phones: PhoneColumn[] = [];
  readings.forEach((r, i) => {
    if (r.role === "phone" && !taken.has(i))
      phones.push({ column: i, header: headers[i]!, kind: r.kind, labelColumn: labels.get(r.group) });
  });
  return phones.sort((a, b) => rankOf(a.kind) - rankOf(b.kind) || a.column - b.column);
}

/**
 * E-mail columns, the best-named first: every column read as the contact's e-mail ("Email: Home",
 * "Email: Work"; "E-mail 1 - Value", "E-mail 2 - Value"), unless one is mapped explicitly (then it
 * alone). One qualified as secondary or other stays apart when a better one is there: a CRM keeps
 * it apart on purpose (Zoho's "Secondary Email").
 */
function rankEmails(
  readings: HeaderReading[],
  headers: readonly string[],
  explicit: ReadonlyMap<number, MappedField>,
  best: number | undefined,
): EmailColumn[] {
  if (best === undefined) return [];
  if (explicit.get(best) === "email") return [{ column: best, header: headers[best]! }];
  const score = (i: number) => {
    const r = readings[i]!;
    return r.role === "field" ? r.score : Number.POSITIVE_INFINITY;
  };
  return readings
    .flatMap((r, i) =>
      r.role === "field" && r.field === "email" && !explicit.has(i) && (i === best || !r.secondary)
        ? [i]
        : [],
    )
    .sort((a, b) => score(a) - score(b) || a - b)
    .map((column) => ({ column, header: headers[column]! }));
}

function phoneWhy(phone: PhoneColumn, position: number, phones: number, headers: readonly string[]): string {
  const kind =
    phone.labelColumn === undefined
      ? KIND_WHY[phone.kind]
      : `its kind read row by row from "${headers[phone.labelColumn]}", mobile first`;
  return phones === 1 ? `the only phone column: ${kind}` : `${ordinal(position + 1)} phone tried: ${kind}`;
}

function noPhone(file: string, headers: readonly string[], readings: HeaderReading[]): IngestFileError {
  const never = readings.flatMap((r, i) =>
    r.role === "never" ? [`"${headers[i]}" is a ${r.kind} number`] : [],
  );
  return new IngestFileError(
    "no_phone_column",
    file,
    `no phone column found (columns: ${headers.map(quote).join(", ")})${never.length ? `; ${never.join(", ")}, ${NEVER_WHY}` : ""}; name one "phone" or map it explicitly`,
  );
}

function ignoredWhy(r: HeaderReading, winner: string | undefined): string | undefined {
  switch (r.role) {
    case "never":
      return `a ${r.kind} number: ${NEVER_WHY}`;
    case "label_of":
      return `the type or label of another ${fieldName(r.field)} column`;
    case "other_party":
      return `the ${fieldName(r.field)} of an organization or assistant, not the contact's`;
    case "field":
      return winner === undefined ? undefined : `also reads as ${r.field}; "${winner}" is preferred`;
    default:
      return undefined;
  }
}

/**
 * Matches the file's headers to contact fields: an explicit mapping first, then header names and
 * patterns. Every phone column is kept, ranked (mobile, main, work, home, other, organization); for
 * any other field the best-named column wins (Job Title over a bare Title, first and last name over a
 * full name). Throws only when no phone column can be found. Pure apart from the error.
 */
export function mapColumns(
  headers: readonly string[],
  file: string,
  explicit: ExplicitMapping = {},
): ColumnMap {
  const readings = headers.map(readHeader);
  const byColumn = explicitColumns(headers, file, explicit);
  const fields: (MappedField | undefined)[] = headers.map(() => undefined);
  const chosen: ColumnNote[] = [];
  const ignored: ColumnNote[] = [];
  const winners = new Map<MappedField, number>();
  for (const [column, field] of byColumn) winners.set(field, column);

  // Best column of each field not mapped explicitly.
  readings.forEach((r, i) => {
    if (r.role !== "field" || byColumn.has(i)) return;
    if (explicit[r.field] !== undefined) return;
    const best = winners.get(r.field);
    const bestReading = best === undefined ? undefined : readings[best];
    if (best === undefined || (bestReading?.role === "field" && r.score < bestReading.score))
      winners.set(r.field, i);
  });
  // First and last name columns win over a full-name column.
  const full = winners.get("full_name");
  if (full !== undefined && !byColumn.has(full) && (winners.has("first_name") || winners.has("last_name"))) {
    winners.delete("full_name");
    ignored.push({
      header: headers[full]!,
      field: "full_name",
      why: "a full name; the first and last name columns are used",
    });
  }

  const emails = rankEmails(readings, headers, byColumn, winners.get("email"));

  let phones: PhoneColumn[];
  const explicitPhone = winners.get("phone");
  if (explicit.phone !== undefined && explicitPhone !== undefined) {
    const r = readings[explicitPhone]!;
    phones = [
      {
        column: explicitPhone,
        header: headers[explicitPhone]!,
        kind: r.role === "phone" ? r.kind : "main",
        labelColumn: undefined,
      },
    ];
  } else {
    phones = rankPhones(readings, headers, byColumn);
  }
  if (phones.length === 0) throw noPhone(file, headers, readings);
  winners.delete("phone");

  for (const field of FIELD_ORDER) {
    if (field === "phone") {
      phones.forEach((p, n) => {
        fields[p.column] = "phone";
        const why =
          explicit.phone !== undefined ? "mapped explicitly" : phoneWhy(p, n, phones.length, headers);
        chosen.push({ header: p.header, field: "phone", why });
      });
      continue;
    }
    if (field === "email" && emails.length > 1) {
      emails.forEach((e, n) => {
        fields[e.column] = "email";
        chosen.push({
          header: e.header,
          field,
          why: `${ordinal(n + 1)} e-mail tried, row by row${turned(e.header)}`,
        });
      });
      continue;
    }
    const column = winners.get(field);
    if (column === undefined) continue;
    fields[column] = field;
    chosen.push({
      header: headers[column]!,
      field,
      why: byColumn.has(column)
        ? "mapped explicitly"
        : field === "full_name"
          ? 'header names a full name, split into first and last name (the first word is the first name, the rest the last name; "Last, First" is turned round)'
          : `header names ${fieldName(field)}${turned(headers[column]!)}`,
    });
  }
  readings.forEach((r, i) => {
    if (fields[i] !== undefined) return;
    if (ignored.some((n) => n.header === headers[i])) return;
    const field =
      r.role === "field" || r.role === "label_of" || r.role === "other_party" ? r.field : undefined;
    const winner = field === undefined ? undefined : winners.get(field);
    const why =
      r.role === "phone" && explicit.phone !== undefined
        ? `also a phone; the mapping names "${explicit.phone}"`
        : r.role === "phone_label" && phones.every((p) => p.labelColumn !== i)
          ? "a phone label without its phone column"
          : ignoredWhy(r, winner === undefined ? undefined : headers[winner]);
    if (why !== undefined) ignored.push({ header: headers[i]!, field, why });
  });

  const mapped: ColumnMap["mapped"] = {};
  for (const note of chosen)
    if (note.field && mapped[note.field] === undefined) mapped[note.field] = note.header;
  const unknown = headers.filter((_, i) => fields[i] === undefined);
  const phonesLabelled = phones.some((p) => p.labelColumn !== undefined);
  return { fields, mapped, unknown, phones, emails, phonesLabelled, chosen, ignored };
}

/** True when a row of cells could be a header: some cell names a phone (or the explicitly mapped one). */
export function namesAPhone(cells: readonly string[], explicit: ExplicitMapping = {}): boolean {
  if (explicit.phone !== undefined) {
    const wanted = normalizeHeader(explicit.phone);
    return cells.some((c) => normalizeHeader(c) === wanted);
  }
  return cells.some((c) => readHeader(c).role === "phone");
}
