/** Contact fields a column can feed, and the header names each is known by. Pure. */

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

/** Header as compared: BOM gone, NFKC, accents dropped ("Prénom" is "prenom"), lower case, letters and digits only. */
export const normalizeHeader = (header: string): string =>
  header
    .replace(/^\uFEFF/, "")
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "");

/** Normalized names of each field, best first: when two columns name one field, the better name wins. */
export const SYNONYMS: Record<MappedField, string[]> = {
  first_name: ["firstname", "first", "givenname", "forename", "fname", "prenom", "vorname", "nombre"],
  // French "Nom" beside "Prénom" is the family name.
  last_name: [
    "lastname",
    "last",
    "surname",
    "familyname",
    "lname",
    "nachname",
    "apellido",
    "apellidos",
    "nom",
  ],
  full_name: ["name", "fullname", "contactname", "contact", "customername", "nomcomplet"],
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
    "number",
  ],
  email: ["email", "emailaddress", "mail", "emailid", "courriel", "emails", "emailaddresses"],
  description: ["description", "notes", "note", "comment", "comments", "remarks"],
  // A bare "Title" comes last: beside "Job Title" it is the honorific (Outlook's Mr, Ms).
  job_title: ["jobtitle", "position", "role", "designation", "occupation", "title"],
  lifecycle_stage: ["lifecyclestage", "lifecycle", "stage"],
  lead_status: ["leadstatus", "status"],
};

export const BY_SYNONYM = new Map<string, MappedField>(
  Object.entries(SYNONYMS).flatMap(([field, names]) => names.map((n) => [n, field as MappedField] as const)),
);

/** Position of `name` among the names of `field`: lower is a better name. */
export const synonymRank = (field: MappedField, name: string): number => {
  const at = SYNONYMS[field].indexOf(name);
  return at < 0 ? SYNONYMS[field].length : at;
};
