import type { CapRule, RuleSet } from "../../calling-rules/index.ts";
import type { CalleeLocation } from "./callee-location.ts";
import { type HoursConstraint, type Interval, openIntervals } from "./calling-hours.ts";
import { type EffectiveRules, effectiveRules, type JobWindow } from "./effective-rules.ts";
import { type CallTime, fitsCaps } from "./frequency.ts";
import { SKIP_REASONS, type SkipReason } from "./skip-reasons.ts";

/** One contact as the planner sees it: facts gathered before (the planner does no I/O). */
export interface ContactFacts {
  phone: string;
  where: CalleeLocation;
  /** The state of the number's own area code, when the file places the callee elsewhere (its rules apply too). */
  numberRegion?: string | undefined;
  optedOut: boolean;
  /** Called by another campaign within the cooldown whenever it is called: skipped outright. */
  recentlyCalled: boolean;
  /** When another campaign last had it (its planned start): the cooldown is checked at each opening. */
  lastCalledAt?: number | undefined;
  /** The number's known calls (instants, or the spans they may be dialled in), for the frequency caps. */
  calls: readonly CallTime[];
}

export interface PlanSettings {
  /** The planning instant: the file's admission for the daemon, `--at` for the preview. */
  at: number;
  ruleSets: readonly RuleSet[];
  window?: JobWindow | undefined;
  fallbackTimezone: string;
  /** The job's own caps (besides the rule sets'). */
  caps: readonly CapRule[];
  /** No call starts at or after this (callBy). */
  callBy?: number | undefined;
  /** A fixed start (`start: { at }`): nothing before it. */
  notBefore?: number | undefined;
  /** Calls ending per minute on the job's dialer (learned, or the default). */
  pacePerMinute: number;
  /** How long before the window closes a campaign should be done. */
  marginMs: number;
  /** How far ahead openings are planned. */
  horizonMs: number;
  /** The cooldown: no campaign within this of another campaign's (calling.caps.recallAfterDays). */
  recallMs?: number | undefined;
}

/** A campaign to create: its contacts in file order, when it starts and must be done. */
export interface PlannedCampaign {
  /** Unique within the file: the zone(s), the region when its rules differ, the opening's number. */
  label: string;
  zone: string;
  zones: string[];
  region?: string;
  rules: string[];
  phones: string[];
  scheduledAt: number;
  /** When its window closes for all its contacts, less the margin (or callBy): no call after. */
  callUntil: number;
  expectedEndAt: number;
  /** 0 for its group's first opening, n for the n-th later one. */
  opening: number;
  /** Its contacts' effective window: a campaign created late, or a follow-up, starts inside it. */
  hours: HoursConstraint[];
  /** The caps its contacts are under, checked again when each is reserved. */
  caps: { calls: number; perHours: number }[];
}

export interface Plan {
  campaigns: PlannedCampaign[];
  /** Contacts planned past their group's first opening, and why (`recentlyCalled` only when some were). */
  later: { contacts: number; windowFull: number; frequencyCap: number; recentlyCalled?: number };
  skipped: Partial<Record<SkipReason, number>>;
  /** Each skipped number and why, in file order (for the error report). */
  skips: { phone: string; reason: SkipReason }[];
}

interface Group {
  rules: EffectiveRules;
  members: ContactFacts[];
}

/**
 * Who is called when: the pure planner the daemon and `vcw preview` both call. Contacts with the
 * same effective window (zones and rules) share campaigns; each campaign is sized to end, at the
 * learned pace, `marginMs` before its window closes; the rest go to the next openings; a number
 * over a cap waits for the opening after it frees; callBy and the horizon bound it all.
 */
export function planCampaigns(contacts: readonly ContactFacts[], s: PlanSettings): Plan {
  const plan: Plan = {
    campaigns: [],
    later: { contacts: 0, windowFull: 0, frequencyCap: 0 },
    skipped: {},
    skips: [],
  };
  const skip = (phone: string, reason: SkipReason) => {
    plan.skipped[reason] = (plan.skipped[reason] ?? 0) + 1;
    plan.skips.push({ phone, reason });
  };
  const start = Math.max(s.at, s.notBefore ?? s.at);
  const labels = new Set<string>();
  for (const group of groupsOf(contacts, s, skip)) {
    // Windows close with a margin; callBy cuts where it falls (no margin: it is not a window).
    const callBy = s.callBy ?? Number.POSITIVE_INFINITY;
    const openings = openIntervals(group.rules.constraints, start, start + s.horizonMs).filter(
      ([opens]) => opens < callBy,
    );
    const label = uniqueLabel(group, labels);
    fillOpenings(group, openings, label, s, plan, skip);
  }
  const position = new Map(contacts.map((c, i) => [c.phone, i]));
  plan.skips.sort((a, b) => position.get(a.phone)! - position.get(b.phone)!);
  return plan;
}

/**
 * The contacts that may be called, grouped by their effective window (same key, same campaigns);
 * the others skipped: opted out, recently called, or under rules none of which reaches them with no
 * window in their own zone to bound the hours.
 */
function groupsOf(
  contacts: readonly ContactFacts[],
  s: PlanSettings,
  skip: (phone: string, reason: SkipReason) => void,
): Iterable<Group> {
  const groups = new Map<string, Group>();
  for (const facts of contacts) {
    if (facts.optedOut) skip(facts.phone, SKIP_REASONS.optedOut);
    else if (facts.recentlyCalled) skip(facts.phone, SKIP_REASONS.recentlyCalled);
    else {
      const rules = effectiveRules(
        facts.where,
        s.ruleSets,
        { window: s.window, fallbackTimezone: s.fallbackTimezone, caps: s.caps },
        facts.numberRegion ? [facts.numberRegion] : [],
      );
      if (s.ruleSets.length > 0 && rules.applied.length === 0 && s.window?.timezone !== "callee")
        skip(facts.phone, SKIP_REASONS.noRuleSet);
      else {
        const group = groups.get(rules.key) ?? { rules, members: [] };
        groups.set(rules.key, group);
        group.members.push(facts);
      }
    }
  }
  return groups.values();
}

/** Why a contact can't be in a campaign of [opens, callUntil]: its cooldown, a cap; undefined: it can. */
function refusal(
  m: ContactFacts,
  caps: Group["rules"]["caps"],
  s: PlanSettings,
  opens: number,
  callUntil: number,
) {
  const recall = s.recallMs ?? 0;
  if (m.lastCalledAt !== undefined && recall > 0 && Math.abs(opens - m.lastCalledAt) < recall)
    return SKIP_REASONS.recentlyCalled;
  if (m.calls.length > 0 && !fitsCaps(m.calls, caps, opens, callUntil)) return SKIP_REASONS.frequencyCap;
  return undefined;
}

/** Campaigns of one group, opening after opening, each as large as its time allows. */
function fillOpenings(
  group: Group,
  openings: readonly Interval[],
  label: string,
  s: PlanSettings,
  plan: Plan,
  skip: (phone: string, reason: SkipReason) => void,
): void {
  let waiting = group.members;
  let opening = 0;
  const caps = group.rules.caps;
  const callUntilOf = (closes: number) => Math.min(closes - s.marginMs, s.callBy ?? Number.POSITIVE_INFINITY);
  const first = openings[0];
  /** Why each contact was refused, the last time it was: what it is skipped for if never planned. */
  const refused = new Map<ContactFacts, SkipReason>();
  for (const [opens, closes] of openings) {
    if (waiting.length === 0) break;
    const callUntil = callUntilOf(closes);
    const capacity = Math.floor((s.pacePerMinute * (callUntil - opens)) / 60_000);
    if (capacity <= 0) continue;
    const taken: ContactFacts[] = [];
    for (const m of waiting) {
      if (taken.length >= capacity) break;
      const no = refusal(m, caps, s, opens, callUntil);
      if (no) refused.set(m, no);
      else taken.push(m);
    }
    if (taken.length === 0) continue;
    const chosen = new Set(taken);
    waiting = waiting.filter((m) => !chosen.has(m));
    if (first && opens !== first[0]) {
      plan.later.contacts += taken.length;
      for (const m of taken) laterReason(plan, refusal(m, caps, s, first[0], callUntilOf(first[1])));
    }
    plan.campaigns.push(campaignOf(group, taken, label, opening, opens, callUntil, s.pacePerMinute));
    opening += 1;
  }
  const cutByCallBy = s.callBy !== undefined && s.callBy < s.at + s.horizonMs;
  for (const m of waiting) {
    const reason = refused.get(m) ?? (cutByCallBy ? SKIP_REASONS.callByPassed : SKIP_REASONS.outsideHours);
    skip(m.phone, reason);
  }
}

/** Counts a contact planned at a later opening under what kept it from the first. */
function laterReason(plan: Plan, why: SkipReason | undefined): void {
  if (why === SKIP_REASONS.frequencyCap) plan.later.frequencyCap += 1;
  else if (why === SKIP_REASONS.recentlyCalled)
    plan.later.recentlyCalled = (plan.later.recentlyCalled ?? 0) + 1;
  else plan.later.windowFull += 1;
}

function campaignOf(
  group: Group,
  taken: Group["members"],
  label: string,
  opening: number,
  opens: number,
  callUntil: number,
  pace: number,
): PlannedCampaign {
  const regions = new Set(taken.map((m) => m.where.region));
  const region = regions.size === 1 ? [...regions][0] : undefined;
  return {
    label: opening === 0 ? label : `${label} #${opening + 1}`,
    zone: zoneLabel(group.rules.zones),
    zones: group.rules.zones,
    ...(region ? { region } : {}),
    rules: group.rules.applied,
    phones: taken.map((m) => m.phone),
    scheduledAt: opens,
    callUntil,
    expectedEndAt: opens + Math.ceil(taken.length / pace) * 60_000,
    opening,
    hours: group.rules.constraints,
    caps: group.rules.caps.map((c) => ({ calls: c.calls, perHours: c.perHours })),
  };
}

/** "America/New_York", or "America/Adak+5" for a number that may be in six clocks. */
const zoneLabel = (zones: readonly string[]) =>
  zones.length === 1 ? zones[0]! : `${zones[0]}+${zones.length - 1}`;

/** The zone label, with the regions whose rules narrowed it, unique among the file's groups. */
function uniqueLabel(group: Group, taken: Set<string>): string {
  const regional = group.rules.applied.filter((a) => a.includes(":")).map((a) => a.split(":")[1]);
  let label = [zoneLabel(group.rules.zones), ...new Set(regional)].join(" ");
  for (let n = 2; taken.has(label); n++) label = `${label.replace(/ v\d+$/, "")} v${n}`;
  taken.add(label);
  return label;
}
