import { isMap } from "./old-spellings.ts";

type Raw = Record<string, unknown>;

/** The fields of `calling:` that say where a callee is and how often a number may be called: no rules. */
const NOT_RULES: Record<string, readonly string[]> = {
  location: ["fallbackTimezone"],
  caps: ["recallAfterDays"],
  consent: ["require", "countries", "seller"],
};

/** The block names something besides those fields (an empty block or map too, as it always did). */
function namesRules(calling: Raw): boolean {
  const keys = Object.keys(calling);
  return (
    keys.length === 0 ||
    keys.some((key) => {
      const fields = NOT_RULES[key];
      const value = calling[key];
      if (fields === undefined || !isMap(value)) return true;
      const named = Object.keys(value);
      return named.length === 0 || named.some((k) => !fields.includes(k));
    })
  );
}

/**
 * The raw job file with its calling rules marked (decision 0049): a `calling:` block turns on the
 * rules (the rule-aware planner, caps, pace, location columns) unless all it holds is
 * `location.fallbackTimezone`, `caps.recallAfterDays` and `consent` (`require`, `countries`), which every job has. Marked by `rules`
 * being there (`[]` when not named). Read before old spellings are moved in. Pure.
 */
export function markCallingRules(raw: unknown): unknown {
  if (!isMap(raw) || !isMap(raw.calling) || "rules" in raw.calling || !namesRules(raw.calling)) return raw;
  return { ...raw, calling: { ...raw.calling, rules: [] } };
}

/** The job's calling rules apply: its `calling:` block names them (markCallingRules). */
/** Typed by the one field it reads, so this file needs nothing of job-definition.ts (which reads it). */
export const underCallingRules = (def: { calling: { rules?: readonly string[] | undefined } }): boolean =>
  def.calling.rules !== undefined;
