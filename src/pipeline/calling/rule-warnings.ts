import { RULE_SET_FOLDERS } from "../../calling-rules/index.ts";
import { underCallingRules } from "../../config/calling-rules-switch.ts";
import type { JobDefinition } from "../../config/job-definition.ts";
import { jobWindowOf, ruleSetsOf } from "./plan-settings.ts";

/**
 * What `vcw jobs check` warns of in a job's calling rules (pure): a rule set that sets no calling
 * hours (gb: no UK statute does, its `withoutHours`; custom without from/to) in a job whose campaign has no window, so
 * its callees would be called at any hour (a UK callee at 03:00). Not an error: the job may mean it.
 */
export function callingWarnings(def: JobDefinition): string[] {
  if (!underCallingRules(def) || jobWindowOf(def).window) return [];
  const start = def.campaign?.start;
  const when = !start || start === "asap" ? "start: asap" : "a fixed start";
  return ruleSetsOf(def)
    .filter((set) => set.national.hours.length === 0)
    .map((set) => ({ set, why: RULE_SET_FOLDERS[set.id]?.withoutHours }))
    .map(
      ({ set, why }) =>
        `job ${def.name}: calling.rules ${set.id} sets no calling hours${why ? ` (${why})` : ""}, and the campaign has ${when}: its callees may be called at any hour; give campaign.start a window (timezone: callee)`,
    );
}
