import { GB_RULES } from "./gb/index.ts";
import type { HolidayCalendar, HoursRule, RuleSet, RuleSetFolder, RuleSource } from "./types.ts";
import { US_RULES } from "./us/index.ts";

export type { CapRule, HoursRule, RuleScope, RuleSet, RuleSetFolder, RuleSource } from "./types.ts";

/**
 * Every rule set a job may name besides `custom`, a folder each (`<id>/index.ts`), in the order the
 * job schema and its messages name them: the one list of their ids (config/job-definition.ts reads it).
 */
const FOLDERS = { us: US_RULES, gb: GB_RULES } as const satisfies Record<string, RuleSetFolder>;

/** A rule set's id: a folder's, or `custom` (the job's own, `calling.custom`). */
export type RuleSetId = keyof typeof FOLDERS | "custom";

export const RULE_SET_FOLDERS: Readonly<Record<string, RuleSetFolder>> = FOLDERS;

/** The rule sets a job may name besides `custom`. */
export const RULE_SETS: Readonly<Record<string, RuleSet>> = Object.fromEntries(
  Object.entries(FOLDERS).map(([id, f]) => [id, f.rules]),
);
/** Every id a job may name: the folders', then `custom`. */
export const RULE_SET_IDS: readonly [RuleSetId, ...RuleSetId[]] = [
  ...(Object.keys(FOLDERS) as (keyof typeof FOLDERS)[]),
  "custom",
] as unknown as [RuleSetId, ...RuleSetId[]];

/** The ids with what each is, as the job schema describes `calling.rules`: "us (federal hours, state overrides), gb, custom (calling.custom)". */
export const RULE_SETS_DESCRIBED = [
  ...Object.entries(FOLDERS).map(([id, f]: [string, RuleSetFolder]) =>
    f.summary ? `${id} (${f.summary})` : id,
  ),
  "custom (calling.custom)",
].join(", ");

/** Holiday calendars the rule sets' hours name (docs/compliance.md), by id: every folder's. */
export const HOLIDAY_CALENDARS: Readonly<Record<string, HolidayCalendar>> = Object.assign(
  {},
  ...Object.values(FOLDERS).map((f: RuleSetFolder) => f.calendars ?? {}),
);

/** The job's own rules (`calling.custom`): hours for every callee, cited as the job's. Its caps are the job's `calling.caps`. */
export function customRuleSet(c: { hours?: Omit<HoursRule, "source"> | undefined }): RuleSet {
  const source: RuleSource = { cite: "the job's calling.custom", url: "", read: "", kind: "guidance" };
  return {
    id: "custom",
    countries: ["*"],
    national: { name: "custom", hours: c.hours ? [{ ...c.hours, source }] : [], caps: [] },
    regions: {},
    notes: [],
  };
}
