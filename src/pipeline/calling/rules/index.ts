import { GB } from "./gb.ts";
import type { CapRule, HoursRule, RuleSet, RuleSource } from "./types.ts";
import { US } from "./us.ts";

export type { CapRule, HoursRule, RuleScope, RuleSet, RuleSource } from "./types.ts";

/** The rule sets a job may name besides `custom`. */
export const RULE_SETS: Readonly<Record<string, RuleSet>> = { us: US, gb: GB };
export const RULE_SET_IDS = ["us", "gb", "custom"] as const;

/** The job's own rules (`calling.custom`): for every callee, cited as the job's. */
export function customRuleSet(c: {
  hours?: Omit<HoursRule, "source"> | undefined;
  caps?: { per24h?: number | undefined; per7d?: number | undefined } | undefined;
}): RuleSet {
  const source: RuleSource = { cite: "the job's calling.custom", url: "", read: "", kind: "guidance" };
  const caps: CapRule[] = [];
  if (c.caps?.per24h !== undefined) caps.push({ calls: c.caps.per24h, perHours: 24, source });
  if (c.caps?.per7d !== undefined) caps.push({ calls: c.caps.per7d, perHours: 168, source });
  return {
    id: "custom",
    countries: ["*"],
    national: { name: "custom", hours: c.hours ? [{ ...c.hours, source }] : [], caps },
    regions: {},
    notes: [],
  };
}
