import { nextOpening, openingAt } from "../../calling/calling-hours.ts";
import type { JobWindow } from "../../calling/effective-rules.ts";
import type { StartRule } from "../create-campaign.ts";
import { deletesTakeMs } from "../segment-listing.ts";

/**
 * When a started campaign must stop calling. Pure. The planner stores a campaign's `callUntil`
 * (the instant its window closes for all its contacts, less a margin); a campaign made before it
 * has none, and stops when the window that opens at its start closes in its zone.
 */

/** The close of the window open at `at`, or of the next one; undefined if it never opens. */
export function windowCloseAfter(window: JobWindow, at: number): number | undefined {
  return openingAt(window, at)?.[1];
}

/** The window of a job's start rule in a campaign's zone, if the job has a window. */
export function windowIn(start: StartRule | undefined, zone: string | undefined): JobWindow | undefined {
  if (!start || start === "asap" || !("window" in start)) return undefined;
  const w = start.window;
  const timezone = w.timezone === "callee" ? (zone ?? "UTC") : w.timezone;
  return { days: w.days, from: w.from, to: w.to, timezone };
}

/**
 * A campaign's stop time: the planner's `callUntil` when it stored one, else the close of the
 * window open at its scheduled start (less `marginMs`); undefined when its job has no window.
 */
export function callUntilOf(
  c: { scheduledAt: string; zone?: string | undefined; callUntil?: number | undefined },
  start: StartRule | undefined,
  marginMs = 0,
): number | undefined {
  if (c.callUntil !== undefined) return c.callUntil;
  const window = windowIn(start, c.zone);
  if (!window) return undefined;
  const close = windowCloseAfter(window, Date.parse(c.scheduledAt));
  return close === undefined ? undefined : close - marginMs;
}

/** A window-close stop's time besides its deletes: its poll job queued and run, the segment listed. */
export const STOP_BASE_LEAD_MS = 5_000;

/**
 * When a window-close stop begins, so that its deletes have landed by `callUntil` (a stop begun at
 * `callUntil` let the service dial whoever came next while it ran): a poll made due then runs at the
 * next tick of the job's schedule (`periodMs` later at most), lists the segment, and deletes the
 * contacts not dialled yet, at most `perSecond` a second. Pure.
 */
export function stopBeginsAt(
  callUntil: number,
  o: { undialled: number; perSecond: number; periodMs: number },
): number {
  return callUntil - STOP_BASE_LEAD_MS - Math.max(0, o.periodMs) - deletesTakeMs(o.undialled, o.perSecond);
}

/**
 * When contacts taken out at `stoppedAt` may be called again: the next opening after the window
 * that was open then has closed (a `callUntil` with a margin falls inside the window).
 */
export function resumeAt(window: JobWindow, stoppedAt: number): number | undefined {
  const opening = nextOpening(window, stoppedAt);
  if (opening !== stoppedAt) return opening;
  const close = windowCloseAfter(window, stoppedAt);
  return close === undefined ? undefined : nextOpening(window, close);
}
