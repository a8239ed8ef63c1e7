import {
  type CapRule,
  customRuleSet,
  RULE_SETS,
  type RuleSet,
  type RuleSource,
} from "../../calling-rules/index.ts";
import { underCallingRules } from "../../config/calling-rules-switch.ts";
import type { JobDefinition } from "../../config/job-definition.ts";
import { locateWithNumber } from "./callee-location.ts";
import { effectiveRules, type JobWindow } from "./effective-rules.ts";
import type { PlanSettings } from "./plan-campaigns.ts";

const JOB_CAP: RuleSource = { cite: "the job's calling.caps", url: "", read: "", kind: "guidance" };
/** A learned pace below this is taken as this: a stalled dialer must not plan campaigns of nobody. */
const MIN_PACE = 0.1;
/** How far ahead a job without calling rules looks for its window's opening. */
const NO_RULES_HORIZON_MS = 15 * 86_400_000;

/** The rule sets a job names, `custom` built from its `calling.custom`. */
export function ruleSetsOf(def: JobDefinition): RuleSet[] {
  const c = def.calling;
  return (c.rules ?? []).map((id) => {
    if (id !== "custom") return RULE_SETS[id]!;
    const h = c.custom;
    return customRuleSet({
      ...(h?.from && h.to ? { hours: { from: h.from, to: h.to, ...(h.days ? { days: h.days } : {}) } } : {}),
    });
  });
}

/** When a file's contacts stop being callable: a date, or an age from its admission. */
export function callByOf(def: JobDefinition, admittedAt: number): number | undefined {
  const by = def.calling?.callBy;
  if (!by) return undefined;
  const age = /^(\d+)(h|d)$/.exec(by);
  if (!age) return Date.parse(by);
  return admittedAt + Number(age[1]) * (age[2] === "h" ? 3_600_000 : 86_400_000);
}

/** The job's window, as the planner reads it (undefined: asap or a fixed time). */
export function jobWindowOf(def: JobDefinition): { window?: JobWindow; fallback: string; at?: number } {
  const start = def.campaign?.start;
  const given = def.calling.location.fallbackTimezone;
  if (!start || start === "asap") return { fallback: given ?? "UTC" };
  if ("at" in start) return { fallback: given ?? "UTC", at: Date.parse(start.at) };
  const w = start.window;
  const fallback = given ?? (w.timezone === "callee" ? "UTC" : w.timezone);
  return { window: { days: w.days, from: w.from, to: w.to, timezone: w.timezone }, fallback };
}

/** The job's window is in each callee's own zone (`timezone: callee`). */
export const inCalleeZone = (def: JobDefinition) => jobWindowOf(def).window?.timezone === "callee";

/**
 * Everything the planner needs of a job, at `at`, with the dialer's pace if learned. `holdMs`: the
 * least time from a campaign's create to its start (settle time or start lead), so the plan's
 * starts are the starts the service is sent.
 */
export function planSettingsOf(
  def: JobDefinition,
  at: number,
  admittedAt: number,
  learnedPace: number | undefined,
  holdMs = 0,
): PlanSettings {
  const c = def.calling;
  const w = jobWindowOf(def);
  const notBefore = holdMs > 0 ? Math.max(w.at ?? at, at + holdMs) : w.at;
  const caps: CapRule[] = [];
  const recallMs = def.calling.caps.recallAfterDays * 86_400_000;
  // Without calling rules: the job's window only, and a campaign takes all its group (not sized to a pace).
  if (!underCallingRules(def))
    return {
      at,
      ruleSets: [],
      window: w.window,
      fallbackTimezone: w.fallback,
      caps: [],
      notBefore,
      pacePerMinute: Number.POSITIVE_INFINITY,
      marginMs: 0,
      horizonMs: NO_RULES_HORIZON_MS,
      recallMs,
    };
  if (c.caps.per24h !== undefined) caps.push({ calls: c.caps.per24h, perHours: 24, source: JOB_CAP });
  if (c.caps.per7d !== undefined) caps.push({ calls: c.caps.per7d, perHours: 168, source: JOB_CAP });
  return {
    at,
    ruleSets: ruleSetsOf(def),
    window: w.window,
    fallbackTimezone: w.fallback,
    caps,
    callBy: callByOf(def, admittedAt),
    notBefore,
    pacePerMinute: Math.max(learnedPace ?? c.callsPerMinute ?? 1, MIN_PACE),
    marginMs: (c.marginMinutes ?? 15) * 60_000,
    horizonMs: (c.horizonDays ?? 7) * 86_400_000,
    recallMs,
  };
}

/**
 * The caps one number is under in a job (none without `calling:`): follow-ups, hand-backs and the
 * mid-campaign check hold it to them too. `region`: where its campaign placed it (a state or
 * province column: its country's rules apply too, as in the plan).
 */
export function capsFor(
  def: JobDefinition,
  phone: string,
  region?: string,
): { calls: number; perHours: number }[] {
  if (!underCallingRules(def)) return [];
  const s = planSettingsOf(def, 0, 0, undefined);
  const { where, numberRegion } = locateWithNumber(phone, region === undefined ? {} : { region });
  return effectiveRules(
    where,
    s.ruleSets,
    { fallbackTimezone: s.fallbackTimezone, caps: s.caps },
    numberRegion ? [numberRegion] : [],
  ).caps.map((c) => ({ calls: c.calls, perHours: c.perHours }));
}

/** The key a dialer's pace is learned under: its id, or its resource's name. */
export function dialerKeyOf(def: JobDefinition): string {
  const d = def.campaign?.dialer;
  if (!d) return "none";
  return "id" in d ? d.id : `resource:${d.resource}`;
}
