/** A region of a country's table: its name, the names files also write it by, the zones it spans. */
export interface RegionRow {
  name: string;
  zones: readonly string[];
  /** Other spellings: GPO/AP abbreviations ("Fla.", "Okla."), other names. Compared letters only. */
  also?: readonly string[];
}

const letters = (text: string) => text.toLowerCase().replace(/[^a-z]/g, "");

/**
 * A reader of one country's region codes from how files and the geocoder write them: the code
 * ("FL"), the name or another spelling ("Florida", "Fla.", "Washington State"), a place with the
 * code after a comma ("San Francisco, CA"), a country written after it (`countryTail`). Undefined
 * when the text names none of the table's regions.
 */
export function regionReader(
  table: Readonly<Record<string, RegionRow>>,
  countryTail: RegExp,
): (text: string) => string | undefined {
  const byName = new Map<string, string>();
  for (const [code, r] of Object.entries(table))
    for (const name of [r.name, ...(r.also ?? [])]) byName.set(letters(name), code);
  return (text) => {
    const t = text.trim().replace(countryTail, "").trim();
    const tail = /,\s*([A-Za-z]{2})\.?$/.exec(t)?.[1];
    const code = (tail ?? t.replace(/\.$/, "")).toUpperCase().replace(/\./g, "");
    if (code.length === 2 && table[code]) return code;
    const name = letters(t);
    return byName.get(name) ?? byName.get(name.replace(/state$/, ""));
  };
}
