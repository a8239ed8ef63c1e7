import type { RuleSet, RuleSetFolder, RuleSource } from "../types.ts";

const ofcom: RuleSource = {
  cite: "Ofcom, Persistent misuse: a statement of Ofcom's general policy (20 December 2016, applies from 1 March 2017)",
  url: "https://www.ofcom.org.uk/consultations-and-statements/category-1/review-of-how-we-use-persistent-misuse-powers",
  read: "2026-11-23",
  kind: "guidance",
};

/**
 * United Kingdom: no statute sets calling hours (PECR regulates consent and the TPS, not the
 * time). Ofcom's persistent misuse policy is about silent, abandoned and repeated calls, without
 * hours or a numeric cap. So the set narrows nothing: the job's own window is the rule.
 */
export const GB: RuleSet = {
  id: "gb",
  countries: ["GB"],
  national: { name: "United Kingdom", hours: [], caps: [] },
  regions: {},
  notes: [
    `No statutory calling hours: the job's window applies (${ofcom.cite}: repeated or abandoned calls may be persistent misuse; it sets no hours).`,
  ],
};

/** The `gb` rule set: no region (the national scope only), no hours of its own. */
export const GB_RULES: RuleSetFolder = {
  rules: GB,
  withoutHours: "no UK statute does: the job's window is the rule",
};
