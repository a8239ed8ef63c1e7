/** What one column header names: a phone of some kind, a phone's label, a contact field, or nothing. Pure. */
import { BY_SYNONYM, type MappedField, normalizeHeader, synonymRank } from "./field-synonyms.ts";
import {
  EMAIL_WORDS,
  isDigits,
  LABEL_COLUMN_WORDS,
  NUMBER_WORDS,
  OTHER_PARTY_WORDS,
  PHONE_WORDS,
  SELF_WORDS,
  segment,
  VALUE_WORDS,
} from "./header-words.ts";
import { isNever, kindOfWord, kindOfWords, type NeverKind, type PhoneKind, rankOf } from "./phone-kind.ts";

export type HeaderReading =
  /** A phone number column; `group` pairs it with a label column ("phone1"). */
  | { role: "phone"; kind: PhoneKind; group: string }
  /** Says, row by row, which kind of number the phone column of the same group holds. */
  | { role: "phone_label"; group: string }
  | { role: "never"; kind: NeverKind }
  /**
   * A contact field; of two columns for one field, the lower `score` wins. `secondary`: an e-mail
   * qualified as secondary or other (Zoho's "Secondary Email"), kept apart from the fallbacks.
   */
  | { role: "field"; field: MappedField; score: number; secondary?: boolean }
  /** The type or label of another column ("E-mail Type"). */
  | { role: "label_of"; field: MappedField }
  /** A field of someone else than the contact ("Organization Name", "Assistant's Name"). */
  | { role: "other_party"; field: MappedField }
  | { role: "none" };

const NONE: HeaderReading = { role: "none" };
/** Number words that make a phone on their own: "Number", not "No" (a row number) or "Nr". */
const WHOLE_NUMBER_WORDS = new Set(["number", "numbers", "numero", "nummer"]);
const EMAIL_PART = new Set([...EMAIL_WORDS, "address", "addresses", "id"]);
/** Kind words that name a phone alone (Outlook's "Callback", "ISDN"); "Home" or "Work" alone do not. */
const PHONE_ALONE = new Set(["callback", "isdn", "voip", "landline"]);
/** Small words a phone header may hold: "to_number", "Numéro de téléphone". */
const FILLER = new Set(["to", "de"]);

interface Words {
  /** Words that name the field ("phone", "first name"...). */
  head: string[];
  /** Kind words ("mobile", "work", "fax"). */
  kinds: string[];
  digits: string[];
  self: string[];
  otherParty: boolean;
  labelColumn: boolean;
  /** The header without its label/type/value words: pairs "Phone 1 - Label" with "Phone 1 - Value". */
  group: string;
}

function sortWords(words: string[]): Words {
  const w: Words = {
    head: [],
    kinds: [],
    digits: [],
    self: [],
    otherParty: false,
    labelColumn: false,
    group: "",
  };
  for (const word of words) {
    if (SELF_WORDS.has(word)) w.self.push(word);
    else if (OTHER_PARTY_WORDS.has(word)) w.otherParty = true;
    else if (isDigits(word)) w.digits.push(word);
    else if (LABEL_COLUMN_WORDS.has(word)) w.labelColumn = true;
    else if (VALUE_WORDS.has(word)) continue;
    else if (kindOfWord(word) !== undefined && !PHONE_WORDS.has(word)) w.kinds.push(word);
    else w.head.push(word);
    if (!LABEL_COLUMN_WORDS.has(word) && !VALUE_WORDS.has(word)) w.group += word;
  }
  return w;
}

/** True when the words name a phone: a phone word, a mobile word alone, or "number" alone or with a kind. */
function namesPhone(w: Words, kind: PhoneKind | NeverKind | undefined): boolean {
  if (!w.head.every((h) => PHONE_WORDS.has(h) || NUMBER_WORDS.has(h) || FILLER.has(h))) return false;
  if (w.head.some((h) => PHONE_WORDS.has(h))) return true;
  if (w.head.length === 0) {
    return (
      kind === "mobile" || (kind !== undefined && isNever(kind)) || w.kinds.some((k) => PHONE_ALONE.has(k))
    );
  }
  if (kind !== undefined) return !w.otherParty;
  // "Number" and "Contact Number" are phones; "Account Number", "Customer Number" are identifiers.
  return (
    !w.otherParty && w.self.every((s) => s === "contact") && w.head.some((h) => WHOLE_NUMBER_WORDS.has(h))
  );
}

function readPhone(w: Words, kind: PhoneKind | NeverKind | undefined): HeaderReading {
  if (kind !== undefined && isNever(kind)) return { role: "never", kind };
  if (w.labelColumn) return { role: "phone_label", group: w.group };
  return { role: "phone", kind: w.otherParty ? "company" : (kind ?? "main"), group: w.group };
}

/** Email qualifiers, best first: an unqualified or primary address before a work, home or other one. */
function emailScore(w: Words, kind: PhoneKind | NeverKind | undefined, name: string): number {
  const qualifier =
    kind === undefined ? 1 : kind === "main" ? 0 : kind === "mobile" || isNever(kind) ? 4 : rankOf(kind);
  return synonymRank("email", name) * 100 + qualifier * 10 + Math.min(9, Number(w.digits[0] ?? 0));
}

function readField(w: Words, kind: PhoneKind | NeverKind | undefined): HeaderReading {
  const isEmail = w.head.some((h) => EMAIL_WORDS.has(h)) && w.head.every((h) => EMAIL_PART.has(h));
  if (isEmail) {
    if (w.labelColumn) return { role: "label_of", field: "email" };
    if (w.otherParty) return { role: "other_party", field: "email" };
    const score = emailScore(w, kind, w.head.join(""));
    return { role: "field", field: "email", score, ...(kind === "other" ? { secondary: true } : {}) };
  }
  // "Contact" alone is a name; "Contact Name" is "Name".
  const name = w.head.length > 0 ? w.head.join("") : w.self.join("");
  const field = BY_SYNONYM.get(name);
  if (field === undefined || field === "phone" || w.kinds.length > 0) return NONE; // "Additional Name"
  if (w.labelColumn) return { role: "label_of", field };
  const score = synonymRank(field, name) * 100 + Math.min(9, Number(w.digits[0] ?? 0));
  if (w.otherParty) {
    // "Organization Title" is the contact's job title; "Organization Name" is not the contact's name.
    return field === "job_title"
      ? { role: "field", field, score: Math.min(score, 10) }
      : { role: "other_party", field };
  }
  return { role: "field", field, score };
}

/**
 * Reads one header. A `Section: Field` header (iCloud contacts through vCard-to-CSV converters:
 * "Name: First", "Email: Home", "Phone: iPhone") that reads as nothing is read as "Field Section"
 * ("First Name").
 */
export function readHeader(header: string): HeaderReading {
  const turned = turnedHeader(header);
  return turned === undefined ? readWords(header) : readWords(turned);
}

/** "First Name" for "Name: First", when the header reads as nothing as written; else undefined. */
export function turnedHeader(header: string): string | undefined {
  const colon = header.indexOf(":");
  if (colon <= 0 || readWords(header).role !== "none") return undefined;
  const turned = `${header.slice(colon + 1).trim()} ${header.slice(0, colon).trim()}`;
  return readWords(turned).role === "none" ? undefined : turned;
}

function readWords(header: string): HeaderReading {
  const key = normalizeHeader(header);
  const words = segment(key);
  if (words === undefined) {
    const field = BY_SYNONYM.get(key);
    if (field === "phone") return { role: "phone", kind: "main", group: key };
    return field ? { role: "field", field, score: synonymRank(field, key) * 100 } : NONE;
  }
  const w = sortWords(words);
  const kind = kindOfWords(w.kinds);
  if (namesPhone(w, kind)) return readPhone(w, kind);
  return readField(w, kind);
}
