import type { RuleSource } from "./types.ts";

/** A statute a rule cites, as vcw's authors read it on `read` (YYYY-MM-DD): its one definition. */
export const law = (cite: string, url: string, read: string): RuleSource => ({
  cite,
  url,
  read,
  kind: "law",
});
