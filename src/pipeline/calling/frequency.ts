import type { CapRule } from "../../calling-rules/index.ts";
import type { CallTime, CapLimit } from "../stores/call-frequency.ts";

/**
 * Frequency caps over reservations. A reservation is a call that may be dialled at any instant of
 * its span ([start, end], epoch ms: its campaign's window); a number is an instant (a call made).
 * A cap of `calls` per `perHours` holds when no window of `perHours` that could contain the new
 * call could also contain `calls` others, whatever the order the reservations were made in. The
 * same arithmetic runs in Redis (stores/call-frequency.ts) for the atomic check. Pure.
 */
export type { CallTime, CapLimit } from "../stores/call-frequency.ts";

const spanOf = (c: CallTime): readonly [number, number] => (typeof c === "number" ? [c, c] : c);

/**
 * The most calls of `calls` that one window of `periodMs` ([s, s + periodMs), s in whole ms) can
 * contain while it also contains an instant of [from, until]. A window contains a call [a, b] when
 * s lies in [a - periodMs + 1, b]; the count only grows at those starts, so they are the ones tried.
 */
export function mostInOneWindow(
  calls: readonly CallTime[],
  periodMs: number,
  from: number,
  until: number,
): number {
  const lo = from - periodMs + 1;
  const spans = calls.map(spanOf).filter(([a, b]) => b >= lo && a - periodMs + 1 <= until);
  let most = 0;
  const starts = [lo, ...spans.map(([a]) => a - periodMs + 1).filter((s) => s > lo && s <= until)];
  for (const s of starts) {
    let n = 0;
    for (const [a, b] of spans) if (a - periodMs + 1 <= s && s <= b) n += 1;
    most = Math.max(most, n);
  }
  return most;
}

/** Whether one more call, at any instant of [from, until], keeps every cap. */
export function fitsCaps(
  calls: readonly CallTime[],
  caps: readonly CapLimit[],
  from: number,
  until = from,
): boolean {
  return caps.every((cap) => mostInOneWindow(calls, cap.perHours * 3_600_000, from, until) < cap.calls);
}

/**
 * The first instant at or after `now` when one more call keeps every cap (`calls`: the number's
 * reservations, any order). A call leaves every window holding an instant t once t passes its end
 * plus the period, so those are the instants tried.
 */
export function capFreesAt(calls: readonly CallTime[], caps: readonly CapLimit[], now: number): number {
  const candidates = [
    now,
    ...caps.flatMap((cap) => calls.map((c) => spanOf(c)[1] + cap.perHours * 3_600_000)),
  ]
    .filter((t) => t >= now)
    .sort((a, b) => a - b);
  return candidates.find((t) => fitsCaps(calls, caps, t)) ?? Number.POSITIVE_INFINITY;
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
