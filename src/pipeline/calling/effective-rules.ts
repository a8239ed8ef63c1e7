import type { Weekday } from "../../lib/time-zone.ts";
import type { CalleeLocation } from "./callee-location.ts";
import type { HoursConstraint } from "./calling-hours.ts";
import { tightestCaps } from "./frequency.ts";
import type { CapRule, RuleSet } from "./rules/index.ts";

/** The job's own window (`campaign.start.window`): in a fixed zone, or in the callee's (`callee`). */
export interface JobWindow {
  days: readonly Weekday[];
  from: string;
  to: string;
  timezone: string;
}

/** What applies to one callee: their window's constraints, their caps, and what it is named by. */
export interface EffectiveRules {
  constraints: HoursConstraint[];
  caps: CapRule[];
  zones: string[];
  /** The rule sets and regions that applied ("us", "us:FL"). */
  applied: string[];
  /** Same key, same window: contacts with equal keys share campaigns. */
  key: string;
}

/**
 * The rules of a callee: every applicable rule set's national and regional hours, in every zone
 * they may be in (only the fallback zone when none is known), and the job's window, intersected:
 * the job narrows, never widens. Caps: the job's and the rule sets', the tightest per period.
 */
export function effectiveRules(
  where: CalleeLocation,
  sets: readonly RuleSet[],
  job: { window?: JobWindow | undefined; fallbackTimezone: string; caps: readonly CapRule[] },
): EffectiveRules {
  const zones = where.zones.length > 0 ? where.zones : [job.fallbackTimezone];
  const constraints: HoursConstraint[] = [];
  const caps: CapRule[] = [...job.caps];
  const applied: string[] = [];
  for (const set of sets) {
    // A callee of no known country gets every set's rules: the strictest reading.
    if (set.country !== "*" && where.country !== undefined && set.country !== where.country) continue;
    const regional = where.region ? set.regions[where.region] : undefined;
    applied.push(regional ? `${set.id}:${where.region}` : set.id);
    for (const scope of regional ? [set.national, regional] : [set.national]) {
      caps.push(...scope.caps);
      for (const h of scope.hours)
        for (const timezone of zones) constraints.push({ timezone, from: h.from, to: h.to, days: h.days });
    }
  }
  const w = job.window;
  if (w) {
    const inZones = w.timezone === "callee" ? zones : [w.timezone];
    for (const timezone of inZones) constraints.push({ timezone, from: w.from, to: w.to, days: w.days });
  }
  const tight = tightestCaps(caps);
  const key = JSON.stringify([
    [
      ...new Set(constraints.map((c) => `${c.timezone} ${c.from}-${c.to} ${c.days?.join(",") ?? "*"}`)),
    ].sort(),
    tight.map((c) => `${c.calls}/${c.perHours}h`),
  ]);
  return { constraints, caps: tight, zones, applied, key };
}
