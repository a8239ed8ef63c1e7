import { DEFAULT_DISCLOSURE_PHRASES } from "../../config/disclosure-definition.ts";

/** The rule a missing disclosure is measured against, as `vcw jobs check` cites it. */
export const DISCLOSURE_RULE =
  "FCC 24-17 (Feb 8 2024): AI-generated voices are 'artificial' under the TCPA, whose rules want an artificial-voice call to identify itself at its start (47 CFR 64.1200(b)); Utah Code 13-77-104 spares a business that discloses at the outset that it is AI. See docs/compliance.md, Disclosure";

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The first of `phrases` `speech` says as whole words, any case; undefined when none. Pure. */
export function disclosurePhrase(
  speech: string,
  phrases: readonly string[] = DEFAULT_DISCLOSURE_PHRASES,
): string | undefined {
  const words = speech.normalize("NFKC");
  return phrases.find((phrase) => {
    const body = literal(phrase.trim()).replace(/\s+/g, "\\s+");
    return new RegExp(`(?<![\\p{L}\\p{N}])${body}(?![\\p{L}\\p{N}])`, "iu").test(words);
  });
}
