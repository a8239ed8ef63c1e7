import type { CapRule } from "./rules/index.ts";

/**
 * The first instant at or after `now` when one more call keeps every cap: fewer than `calls` calls
 * in the `perHours` before it. `calls` are the number's known call times (any order). Pure.
 */
export function capFreesAt(calls: readonly number[], caps: readonly CapRule[], now: number): number {
  const fits = (t: number) =>
    caps.every((cap) => calls.filter((c) => c > t - cap.perHours * 3_600_000 && c <= t).length < cap.calls);
  const candidates = [now, ...caps.flatMap((cap) => calls.map((c) => c + cap.perHours * 3_600_000))]
    .filter((t) => t >= now)
    .sort((a, b) => a - b);
  return candidates.find(fits) ?? Number.POSITIVE_INFINITY;
}

/** The tightest caps first, one per period: the smallest count for each period. */
export function tightestCaps(caps: readonly CapRule[]): CapRule[] {
  const byPeriod = new Map<number, CapRule>();
  for (const cap of caps) {
    const known = byPeriod.get(cap.perHours);
    if (!known || cap.calls < known.calls) byPeriod.set(cap.perHours, cap);
  }
  return [...byPeriod.values()].sort((a, b) => a.perHours - b.perHours);
}
