import type { CapRule, RuleScope, RuleSet } from "../../calling-rules/index.ts";
import type { Weekday } from "../../lib/time-zone.ts";
import type { CalleeLocation } from "./callee-location.ts";
import type { HoursConstraint } from "./calling-hours.ts";
import { distinctTimeZones } from "./distinct-zones.ts";
import { tightestCaps } from "./frequency.ts";

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
 * A rule set applies to a callee who may be in one of its countries (the number's, or the one a
 * region cell names), and to a callee of no known country (the strictest reading).
 */
const appliesTo = (set: RuleSet, where: CalleeLocation) =>
  set.countries.includes("*") ||
  where.country === undefined ||
  (where.countries ?? [where.country]).some((c) => set.countries.includes(c));

/**
 * The rules of a callee: every applicable rule set's national hours and those of **every** region
 * they may be in (a toll-free number: every state's; `alsoRegions`: the number's own state when the
 * file places them elsewhere, as Florida and Oklahoma presume a call to their area codes reaches
 * someone there), in every zone they may be in (the number's and the file's cells': only the
 * fallback zone when none is known), and the job's window, intersected: the strictest of every
 * candidate, the job narrows, never widens. Caps: the job's and the rule sets', the tightest per
 * period.
 */
export function effectiveRules(
  where: CalleeLocation,
  sets: readonly RuleSet[],
  job: { window?: JobWindow | undefined; fallbackTimezone: string; caps: readonly CapRule[] },
  alsoRegions: readonly string[] = [],
): EffectiveRules {
  const zones = where.zones.length > 0 ? where.zones : [job.fallbackTimezone];
  const located = where.region ? [where.region] : [];
  const constraints: HoursConstraint[] = [];
  const caps: CapRule[] = [...job.caps];
  const applied: string[] = [];
  for (const set of sets) {
    if (!appliesTo(set, where)) continue;
    // Each region's rules where the callee would be if there: every candidate zone for the region
    // the file or the number names, a region's own for a number that may be anywhere, both for the
    // number's own state when the file names another.
    const regional = [
      ...located.map((r) => regionIn(set, r, () => zones)),
      ...(where.regions ?? []).map((r) => regionIn(set, r, (scope) => scope.zones ?? zones)),
      ...alsoRegions.map((r) => regionIn(set, r, (scope) => [...zones, ...(scope.zones ?? [])])),
    ].filter((x) => x !== undefined);
    const named = [...new Set(regional.map(([r]) => `${set.id}:${r}`))];
    applied.push(...(named.length > 0 ? named : [set.id]));
    caps.push(...set.national.caps);
    constraints.push(...inZones(set.national, zones));
    for (const [, scope, where] of regional) {
      caps.push(...scope.caps);
      constraints.push(...inZones(scope, distinctTimeZones(where)));
    }
  }
  const w = job.window;
  if (w) {
    const inZones = w.timezone === "callee" ? zones : [w.timezone];
    for (const timezone of inZones) constraints.push({ timezone, from: w.from, to: w.to, days: w.days });
  }
  const unique = [...new Map(constraints.map((c) => [constraintKey(c), c])).values()];
  const tight = tightestCaps(caps);
  const key = JSON.stringify([
    unique.map(constraintKey).sort(),
    tight.map((c) => `${c.calls}/${c.perHours}h`),
  ]);
  return { constraints: unique, caps: tight, zones, applied, key };
}

/**
 * The set's region a location's region names, by its code or the set's own resolver (`regionOf`),
 * with the zones its hours are read in; undefined when the set has no rules there.
 */
function regionIn(
  set: RuleSet,
  region: string,
  zonesOf: (scope: RuleScope) => readonly string[],
): readonly [string, RuleScope, readonly string[]] | undefined {
  const code = set.regions[region] ? region : set.regionOf?.(region);
  const scope = code === undefined ? undefined : set.regions[code];
  return scope && code !== undefined ? [code, scope, zonesOf(scope)] : undefined;
}

/** A scope's hours in each zone (or in the one zone a rule names). */
const inZones = (scope: RuleScope, zones: readonly string[]): HoursConstraint[] =>
  scope.hours.flatMap((h) =>
    (h.timezone ? [h.timezone] : zones).map((timezone) => ({
      timezone,
      from: h.from,
      to: h.to,
      days: h.days,
      ...(h.holidays ? { holidays: h.holidays } : {}),
      ...(h.or?.length ? { or: h.or } : {}),
    })),
  );

const windowKey = (w: Omit<HoursConstraint, "timezone" | "or">) =>
  `${w.from}-${w.to} ${w.days?.join(",") ?? "*"}${w.holidays ? ` !${w.holidays}` : ""}`;
const constraintKey = (c: HoursConstraint) =>
  `${c.timezone} ${[c, ...(c.or ?? [])].map(windowKey).join(" | ")}`;
