/** What holds a campaign's start back from its create (VCW_SETTLE_MS, VCW_START_LEAD_MS). */
export interface StartHold {
  settleMs?: number | undefined;
  startLeadMs?: number | undefined;
}

/**
 * Why a campaign starts when it does, when the hold after its create set it rather than its
 * window: "60 s after its create: VCW_SETTLE_MS"; undefined when its window or asked time did.
 * Within a second: the start is reckoned a moment before the create is marked sent. Pure.
 */
export function startReason(startAt: number, createdAt: number, hold: StartHold): string | undefined {
  const settle = hold.settleMs ?? 0;
  const lead = hold.startLeadMs ?? 0;
  const wait = Math.max(settle, lead);
  if (wait === 0 || Math.abs(startAt - createdAt - wait) > 1_000) return undefined;
  const seconds = `${Math.round(wait / 1000)} s after its create`;
  return settle >= lead ? `${seconds}: VCW_SETTLE_MS` : `${seconds}: VCW_START_LEAD_MS, for its check`;
}
