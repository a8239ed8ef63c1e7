/**
 * A header as words: "Person - Phone - Mobile", "Phone 1 - Value", "Phone: iPhone", "mobilePhoneNumber"
 * and "MOBILE_PHONE_NUMBER" all read the same. The header is normalized (letters and digits only) and
 * cut into known words, fewest words first; a header with an unknown word is not read by pattern
 * (so "Notes: phone list" or "Marketing consent phone" are not phones). Pure.
 */
import { KIND_WORDS } from "./phone-kind.ts";

/** The contact itself: dropped ("Person - Name" is "Name"). */
export const SELF_WORDS = new Set(["person", "contact", "lead", "customer", "client"]);
/** Someone else than the contact: their phone is a switchboard, their name is not the contact's. */
export const OTHER_PARTY_WORDS = new Set([
  "organization",
  "organisation",
  "org",
  "company",
  "account",
  "employer",
  "assistant",
  "assistants",
  "asst",
]);
/** Words of a numbered group ("Phone 1 - Value" beside "Phone 1 - Label"). */
export const VALUE_WORDS = new Set(["value"]);
export const LABEL_COLUMN_WORDS = new Set(["label", "type", "kind", "category"]);
/** Words that make a header a phone. */
export const PHONE_WORDS = new Set([
  "phone",
  "phones",
  "telephone",
  "tel",
  "telefon",
  "telefono",
  "telefone",
  "telefoon",
  "msisdn",
]);
/** "Number" words: a phone when alone or with a kind ("Mobile Number"), not with others ("Account Number"). */
export const NUMBER_WORDS = new Set([
  "number",
  "numbers",
  "no",
  "num",
  "nr",
  "nbr",
  "numero",
  "número",
  "nummer",
]);
export const EMAIL_WORDS = new Set(["email", "emails", "mail", "courriel"]);
const EMAIL_TAIL_WORDS = new Set(["address", "addresses", "id"]);

/** Words of the field synonyms (headers.ts), cut small so that compounds are found in any spelling. */
const FIELD_WORDS = [
  "first",
  "given",
  "forename",
  "fname",
  "prenom",
  "vorname",
  "nombre",
  "last",
  "surname",
  "family",
  "lname",
  "nachname",
  "apellido",
  "apellidos",
  "name",
  "full",
  "nom",
  "complet",
  "description",
  "notes",
  "note",
  "comment",
  "comments",
  "remarks",
  "job",
  "title",
  "position",
  "role",
  "designation",
  "occupation",
  "lifecycle",
  "stage",
  "status",
];

const VOCABULARY = new Set([
  ...SELF_WORDS,
  ...OTHER_PARTY_WORDS,
  ...VALUE_WORDS,
  ...LABEL_COLUMN_WORDS,
  ...PHONE_WORDS,
  ...NUMBER_WORDS,
  ...EMAIL_WORDS,
  ...EMAIL_TAIL_WORDS,
  ...FIELD_WORDS,
  ...Object.keys(KIND_WORDS),
  "to",
  "de",
]);
const LONGEST = Math.max(...[...VOCABULARY].map((w) => w.length));
/** Headers longer than this are prose, not column names (a preamble line, a data cell). */
const MAX_HEADER = 60;

/**
 * `normalized` cut into vocabulary words and digit runs, fewest pieces first; undefined when it
 * cannot be. "personphonemobile" -> person, phone, mobile; "phone1value" -> phone, 1, value.
 */
export function segment(normalized: string): string[] | undefined {
  const n = normalized.length;
  if (n === 0 || n > MAX_HEADER) return undefined;
  // best[i]: fewest pieces covering normalized[0, i); from[i]: where its last piece starts.
  const best = new Array<number>(n + 1).fill(Number.POSITIVE_INFINITY);
  const from = new Array<number>(n + 1).fill(-1);
  best[0] = 0;
  for (let i = 0; i < n; i++) {
    if (best[i] === Number.POSITIVE_INFINITY) continue;
    const step = (end: number) => {
      if (best[i]! + 1 < best[end]!) {
        best[end] = best[i]! + 1;
        from[end] = i;
      }
    };
    let digits = i;
    while (digits < n && normalized.charCodeAt(digits) >= 48 && normalized.charCodeAt(digits) <= 57) digits++;
    if (digits > i) step(digits);
    for (let end = i + 1; end <= Math.min(n, i + LONGEST); end++) {
      if (VOCABULARY.has(normalized.slice(i, end))) step(end);
    }
  }
  if (best[n] === Number.POSITIVE_INFINITY) return undefined;
  const words: string[] = [];
  for (let end = n; end > 0; end = from[end]!) words.unshift(normalized.slice(from[end]!, end));
  return words;
}

export const isDigits = (word: string) => /^\d+$/.test(word);
