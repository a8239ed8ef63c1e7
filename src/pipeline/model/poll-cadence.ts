/**
 * When a campaign is polled next: pure arithmetic, so the daemon (poll-processor.ts) and the tests
 * agree on it. Nothing is polled before its scheduled start (once shortly after it); while a call
 * is under way, at every tick; quiet for a while, less often, up to a ceiling; a change brings it
 * back to every tick.
 */

export interface Cadence {
  /** The gap between two ticks of the job's schedule. */
  periodMs: number;
  /** The first poll comes this long after the scheduled start. */
  startGraceMs: number;
  /** With no call under way and no change for this long, the campaign is quiet. */
  quietAfterMs: number;
  /** The longest gap between two polls of a quiet campaign. */
  ceilingMs: number;
}

export interface PolledCampaign {
  /** The tick the poll was enqueued for (epoch ms). */
  tickMs: number;
  /** When the poll ended. */
  at: number;
  /** The campaign's scheduled start (NaN: unknown, taken as started). */
  scheduledAtMs: number;
  /** The last poll that changed something (or the campaign's registration). */
  lastChangeAt: number;
  /** An entry shows a status of a call under way. */
  inFlight: boolean;
}

/** The start grace of a campaign registered without its job's settings at hand. */
export const DEFAULT_START_GRACE_MS = 15_000;

/** The first poll of a new campaign: shortly after its scheduled start, or now if that is past. */
export function firstPollAt(scheduledAt: string, now: number, startGraceMs = DEFAULT_START_GRACE_MS): number {
  const start = Date.parse(scheduledAt);
  return Number.isFinite(start) && start > now ? start + startGraceMs : now;
}

/** The time (epoch ms) from which the next tick polls the campaign again. */
export function nextPollAt(p: PolledCampaign, c: Cadence): number {
  const start = Number.isFinite(p.scheduledAtMs) ? p.scheduledAtMs : 0;
  if (start > p.at) return start + c.startGraceMs;
  const nextTick = p.tickMs + c.periodMs;
  if (p.inFlight) return nextTick;
  const quietFor = p.at - Math.max(p.lastChangeAt, start);
  if (quietFor < c.quietAfterMs) return nextTick;
  // Half the quiet time so far: a long silence is checked less often, a short one soon again.
  const gap = Math.min(c.ceilingMs, Math.max(c.periodMs, quietFor / 2));
  return Math.max(nextTick, p.tickMs + gap);
}
