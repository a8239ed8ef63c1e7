/** Counted nouns in English, through Intl.PluralRules: "1 campaign", "2 campaigns", never "campaign(s)". Pure. */
const rules = new Intl.PluralRules("en-US");

/** Nouns whose plural is not the noun and an "s". */
const IRREGULAR: Record<string, string> = {
  "late copy": "late copies",
  entry: "entries",
  reply: "replies",
};

/** The noun's form for `n` of it. */
export function plural(noun: string, n: number): string {
  return rules.select(n) === "one" ? noun : (IRREGULAR[noun] ?? `${noun}s`);
}

/** `n` and its noun: "1 duplicate", "1,204 duplicates". */
export const counted = (n: number, noun: string) => `${n.toLocaleString("en-US")} ${plural(noun, n)}`;
