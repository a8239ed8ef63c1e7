/** What holds a campaign's start back from its create (VCW_SETTLE_MS, VCW_START_LEAD_MS). */
export interface StartHold {
  settleMs?: number | undefined;
  startLeadMs?: number | undefined;
}

/** The least time from a campaign's create to its start: the settle time or the start lead. Pure. */
export const holdMsOf = (hold: StartHold) => Math.max(hold.settleMs ?? 0, hold.startLeadMs ?? 0);

/**
 * Why a campaign starts when it does, when the hold after its create set it rather than its
 * window: "60 s after its create: VCW_SETTLE_MS"; undefined when its window or asked time did.
 * Within a second: the start is reckoned a moment before the create is marked sent. Pure.
 */
export function startReason(startAt: number, createdAt: number, hold: StartHold): string | undefined {
  const settle = hold.settleMs ?? 0;
  const lead = hold.startLeadMs ?? 0;
  const wait = holdMsOf(hold);
  if (wait === 0 || Math.abs(startAt - createdAt - wait) > 1_000) return undefined;
  const seconds = `${Math.round(wait / 1000)} s after its create`;
  return settle >= lead ? `${seconds}: VCW_SETTLE_MS` : `${seconds}: VCW_START_LEAD_MS, for its check`;
}

/** `startReason` as a record's optional field: `{ startReason }`, or nothing when its window decided. */
export function startReasonOf(startAt: number, createdAt: number, hold: StartHold): { startReason?: string } {
  const why = startReason(startAt, createdAt, hold);
  return why ? { startReason: why } : {};
}
