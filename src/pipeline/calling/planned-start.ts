import { type HoursConstraint, openIntervals } from "./calling-hours.ts";

/** What a campaign request carries of its plan (absent on requests made without calling rules). */
export interface PlannedTimes {
  scheduledAt?: number | undefined;
  callUntil?: number | undefined;
  expectedEndAt?: number | undefined;
  /** Its contacts' effective window: where a late or follow-up campaign may still start. */
  hours?: readonly HoursConstraint[] | undefined;
  callBy?: number | undefined;
}

export type StartDecision =
  | { kind: "start"; scheduledAt: number; callUntil: number; expectedEndAt: number }
  /** No opening before callBy (or within two weeks): the campaign is not made. */
  | { kind: "too-late"; reason: "call_by_passed" | "outside_hours" };

const TWO_WEEKS = 14 * 86_400_000;

/**
 * When a planned campaign starts, decided when it is created (`now`): as planned while its window
 * is still open (never before now), else at the next opening of its contacts' window, its close
 * less `marginMs` the new `callUntil`; never at or after callBy. Undefined for a request without
 * a plan (today's `scheduledAtFor` applies). Pure.
 */
export function plannedStart(p: PlannedTimes, now: number, marginMs: number): StartDecision | undefined {
  if (p.scheduledAt === undefined && !p.hours) return undefined;
  const callBy = p.callBy ?? Number.POSITIVE_INFINITY;
  const duration = Math.max((p.expectedEndAt ?? 0) - (p.scheduledAt ?? 0), 0);
  if (p.scheduledAt !== undefined && p.callUntil !== undefined && now < p.callUntil) {
    const scheduledAt = Math.max(now, p.scheduledAt);
    return { kind: "start", scheduledAt, callUntil: p.callUntil, expectedEndAt: scheduledAt + duration };
  }
  for (const [opens, closes] of openIntervals(p.hours ?? [], now, now + TWO_WEEKS)) {
    if (opens >= callBy) return { kind: "too-late", reason: "call_by_passed" };
    const callUntil = Math.min(closes - marginMs, callBy);
    if (callUntil > opens)
      return { kind: "start", scheduledAt: opens, callUntil, expectedEndAt: opens + duration };
  }
  return { kind: "too-late", reason: callBy < now + TWO_WEEKS ? "call_by_passed" : "outside_hours" };
}
