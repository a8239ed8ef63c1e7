/** What kind of number a phone column or label holds, and in which order kinds are tried. Pure. */

/** Tried in this order: a mobile reaches the person, a company line reaches a switchboard. */
export const PHONE_KINDS = ["mobile", "main", "work", "home", "other", "company"] as const;
export type PhoneKind = (typeof PHONE_KINDS)[number];
/** Numbers never called: a voice call to a fax or a pager reaches no one. */
export type NeverKind = "fax" | "pager" | "telex" | "text telephone";

export const rankOf = (kind: PhoneKind): number => PHONE_KINDS.indexOf(kind);

/** Words of headers and labels that say which kind of number it is. */
export const KIND_WORDS: Record<string, PhoneKind | NeverKind> = {
  mobile: "mobile",
  mobil: "mobile",
  cell: "mobile",
  cellular: "mobile",
  iphone: "mobile",
  handy: "mobile",
  gsm: "mobile",
  whatsapp: "mobile",
  sms: "mobile",
  movil: "mobile",
  celular: "mobile",
  portable: "mobile",
  main: "main",
  primary: "main",
  principal: "main",
  preferred: "main",
  pref: "main",
  work: "work",
  business: "work",
  office: "work",
  direct: "work",
  corporate: "work",
  bureau: "work",
  home: "home",
  private: "home",
  personal: "home",
  residence: "home",
  landline: "home",
  fixe: "home",
  domicile: "home",
  other: "other",
  additional: "other",
  alternate: "other",
  alternative: "other",
  alt: "other",
  secondary: "other",
  second: "other",
  extra: "other",
  backup: "other",
  car: "other",
  radio: "other",
  callback: "other",
  isdn: "other",
  voip: "other",
  google: "other",
  voice: "other",
  custom: "other",
  fax: "fax",
  facsimile: "fax",
  telefax: "fax",
  pager: "pager",
  beeper: "pager",
  telex: "telex",
  tty: "text telephone",
  tdd: "text telephone",
  textphone: "text telephone",
};

/** The kind a word of a header or label names, if any (a label "constructor" names none). */
export const kindOfWord = (word: string): PhoneKind | NeverKind | undefined =>
  Object.hasOwn(KIND_WORDS, word) ? KIND_WORDS[word] : undefined;

const NEVER = new Set<string>(["fax", "pager", "telex", "text telephone"]);
export const isNever = (kind: string): kind is NeverKind => NEVER.has(kind);

/** Which kind several words name together: a never-kind wins, then the first kind in `PHONE_KINDS`. */
export function kindOfWords(words: readonly string[]): PhoneKind | NeverKind | undefined {
  let best: PhoneKind | undefined;
  for (const word of words) {
    const kind = kindOfWord(word);
    if (kind === undefined) continue;
    if (isNever(kind)) return kind;
    if (best === undefined || rankOf(kind) < rankOf(best)) best = kind;
  }
  return best;
}

/**
 * The kind a label cell names ("Mobile", "* Work", "Home Fax", a custom "Grandma"). An empty label
 * is an unlabelled number, tried like a plain "Phone" column; an unknown one is "other".
 */
export function kindOfLabel(label: string): PhoneKind | NeverKind {
  const words = label
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .match(/[\p{L}\p{N}]+/gu);
  if (!words) return "main";
  return kindOfWords(words) ?? "other";
}

const ORDINALS = ["1st", "2nd", "3rd"];
export const ordinal = (n: number) => ORDINALS[n - 1] ?? `${n}th`;
