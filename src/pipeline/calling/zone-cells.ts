import { isTimeZone } from "../../lib/time-zone.ts";

/**
 * What a file's time-zone cell says: the IANA zones it may mean. A name with a slash is IANA's own;
 * other cells are read from the words and abbreviations of US and UK files. ICU's own abbreviations
 * are never taken ("AST" is Anchorage there, "BST" Dhaka, "IST" Kolkata, "SST" Guadalcanal): an
 * abbreviation with several meanings gives every one of them, and one we don't know gives none (the
 * cell is unreadable: the state and the number say where). Pure.
 */
const NY = "America/New_York";
const CHI = "America/Chicago";
const DEN = "America/Denver";
const PHX = "America/Phoenix";
const LA = "America/Los_Angeles";
const AK = "America/Anchorage";
const HI = "Pacific/Honolulu";
const ADAK = "America/Adak";
const PR = "America/Puerto_Rico";
const HALIFAX = "America/Halifax";
const LONDON = "Europe/London";

/** Words and abbreviations, lower-case letters only, "time"/"standard"/"daylight" taken off. */
const WORDS: Readonly<Record<string, readonly string[]>> = {
  eastern: [NY],
  e: [NY],
  est: [NY],
  edt: [NY],
  et: [NY],
  central: [CHI],
  c: [CHI],
  cst: [CHI],
  cdt: [CHI],
  ct: [CHI],
  // Mountain time with and without DST: Arizona keeps MST all year.
  mountain: [DEN, PHX],
  m: [DEN, PHX],
  mst: [DEN, PHX],
  mt: [DEN, PHX],
  mdt: [DEN],
  arizona: [PHX],
  pacific: [LA],
  p: [LA],
  pst: [LA],
  pdt: [LA],
  pt: [LA],
  alaska: [AK],
  ak: [AK],
  akst: [AK],
  akdt: [AK],
  akt: [AK],
  hawaii: [HI],
  h: [HI],
  hst: [HI, ADAK],
  hast: [HI, ADAK],
  hadt: [ADAK],
  hawaiialeutian: [HI, ADAK],
  aleutian: [ADAK],
  // Atlantic: Puerto Rico and the Virgin Islands (no DST), or Canada's Maritimes.
  atlantic: [PR, HALIFAX],
  ast: [PR, HALIFAX, AK],
  adt: [HALIFAX],
  chamorro: ["Pacific/Guam"],
  chst: ["Pacific/Guam"],
  samoa: ["Pacific/Pago_Pago"],
  sst: ["Pacific/Pago_Pago", "Asia/Singapore"],
  // UK files: GMT in winter, BST in summer; BST is also Bangladesh's.
  uk: [LONDON],
  british: [LONDON],
  gmt: [LONDON, "UTC"],
  bst: [LONDON, "Asia/Dhaka"],
  ist: ["Asia/Kolkata", "Europe/Dublin", "Asia/Jerusalem"],
  utc: ["UTC"],
};

/** The zones a time-zone cell may mean; empty when it can't be read. */
export function zonesFromCell(text: string): string[] {
  const t = text.trim();
  if (t.includes("/")) return isTimeZone(t) && /^[A-Za-z]+\/[A-Za-z_+\-/0-9]+$/.test(t) ? [t] : [];
  const word = t
    .toLowerCase()
    .replace(/\([^)]*\)/g, "")
    .replace(/[^a-z]/g, "")
    .replace(/(standard|daylight)?time$/, "")
    .replace(/(standard|daylight)$/, "");
  // Own words only: a cell "constructor" or "toString" is not a zone.
  return Object.hasOwn(WORDS, word) ? [...WORDS[word]!] : [];
}
