import { IngestFileError } from "./ingest-file-error.ts";

/** Contact fields a column can feed (spec 2.5), plus a full name that is split in two. */
export const CONTACT_FIELDS = [
  "first_name",
  "last_name",
  "phone",
  "email",
  "description",
  "job_title",
  "lifecycle_stage",
  "lead_status",
] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];
export type MappedField = ContactField | "full_name";

/** Header as compared: BOM gone, NFKC, lower case, letters and digits only. */
export const normalizeHeader = (header: string): string =>
  header
    .replace(/^\uFEFF/, "")
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "");

const SYNONYMS: Record<MappedField, string[]> = {
  first_name: ["firstname", "first", "givenname", "forename", "fname", "prenom", "vorname", "nombre"],
  last_name: ["lastname", "last", "surname", "familyname", "lname", "nachname", "apellido", "apellidos"],
  full_name: ["name", "fullname", "contactname", "contact", "customername", "nom"],
  phone: [
    "phone",
    "phonenumber",
    "phoneno",
    "phonenum",
    "mobile",
    "mobilephone",
    "mobilenumber",
    "mobileno",
    "cell",
    "cellphone",
    "cellnumber",
    "cellular",
    "tel",
    "telephone",
    "telephonenumber",
    "telefon",
    "telefono",
    "msisdn",
    "contactnumber",
    "primaryphone",
    "whatsapp",
  ],
  email: ["email", "emailaddress", "mail", "emailid", "courriel"],
  description: ["description", "notes", "note", "comment", "comments", "remarks"],
  job_title: ["jobtitle", "title", "position", "role", "designation"],
  lifecycle_stage: ["lifecyclestage", "lifecycle", "stage"],
  lead_status: ["leadstatus", "status"],
};

const BY_SYNONYM = new Map<string, MappedField>(
  Object.entries(SYNONYMS).flatMap(([field, names]) => names.map((n) => [n, field as MappedField] as const)),
);

/** `field -> header as written in the file`; wins over the synonyms. */
export type ExplicitMapping = Partial<Record<MappedField, string>>;

export interface ColumnMap {
  /** For each column of the file, the field it feeds, or undefined. */
  fields: (MappedField | undefined)[];
  /** Field -> header, for reporting. */
  mapped: Partial<Record<MappedField, string>>;
  /** Headers that feed no field: kept for the error report, not sent. */
  unknown: string[];
}

/** Matches the file's headers to contact fields. Throws when the file cannot be mapped. */
export function mapColumns(
  headers: readonly string[],
  file: string,
  explicit: ExplicitMapping = {},
): ColumnMap {
  const fields: (MappedField | undefined)[] = headers.map(() => undefined);
  const normalized = headers.map(normalizeHeader);
  const explicitFields = new Set<MappedField>();

  for (const [field, header] of Object.entries(explicit) as [MappedField, string][]) {
    const index = normalized.indexOf(normalizeHeader(header));
    if (index < 0) {
      throw new IngestFileError(
        "unknown_mapped_column",
        file,
        `the mapping sends column "${header}" to ${field}, but the file has no such column (columns: ${headers.join(", ")})`,
      );
    }
    fields[index] = field;
    explicitFields.add(field);
  }
  normalized.forEach((key, i) => {
    if (fields[i] !== undefined) return;
    const field = BY_SYNONYM.get(key);
    if (field && !explicitFields.has(field)) fields[i] = field;
  });

  const mapped: ColumnMap["mapped"] = {};
  for (const [i, field] of fields.entries()) {
    if (!field) continue;
    const previous = mapped[field];
    if (previous !== undefined) {
      throw new IngestFileError(
        "duplicate_mapping",
        file,
        `columns "${previous}" and "${headers[i]}" both map to ${field}; give an explicit mapping for ${field} to choose one`,
      );
    }
    mapped[field] = headers[i]!;
  }
  // A full name only fills in when there are no separate name columns.
  if (mapped.full_name !== undefined && (mapped.first_name !== undefined || mapped.last_name !== undefined)) {
    fields[fields.indexOf("full_name")] = undefined;
    delete mapped.full_name;
  }
  if (mapped.phone === undefined) {
    throw new IngestFileError(
      "no_phone_column",
      file,
      `no phone column found (columns: ${headers.map((h) => `"${h}"`).join(", ")}); name one "phone" or map it explicitly`,
    );
  }
  const unknown = headers.filter((_, i) => fields[i] === undefined);
  return { fields, mapped, unknown };
}
