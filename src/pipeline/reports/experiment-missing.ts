import type { MissingReason } from "./model.ts";

/** What the campaigns made for one planned campaign (an assignment key) say: for whom, and how it went. */
export interface FamilyFacts {
  variant: string;
  /** Contacts its first campaign was made for, and of them those with a call that ended. */
  audience: number;
  called: number;
  /** A campaign of it still running; why vcw stopped any; contacts its start check took out. */
  active: boolean;
  stops: Set<string>;
  withdrawnAtStart?: number;
}

export type MissingFacts = Map<string, FamilyFacts>;

/** An assignment as the experiment store keeps it (stores/experiment-store.ts `Assignment`). */
export interface AssignmentFacts {
  key: string;
  variant: string;
  assigned: number;
  setAside: number;
}

/** A stop's reason (stores/stop-store.ts) as the missing contacts' reason. */
const STOPPED: Record<string, MissingReason> = {
  "window-closed": "window-closed",
  "opted-out": "opted-out",
  "frequency-cap": "frequency-cap",
  operator: "operator",
};

/** How a missing reason reads: "3 no campaign made (refused, failed or not made yet)". */
export const MISSING_WORDS: Record<MissingReason, string> = {
  "set-aside": "set aside before the campaign (cooldown or caps)",
  "no-campaign": "in no campaign made (refused, failed or not made yet)",
  waiting: "still waiting in a running campaign",
  "window-closed": "taken out when a window closed",
  "opted-out": "opted out or on a do-not-call list",
  "frequency-cap": "taken out for a frequency cap",
  operator: "taken out by an operator's stop",
  "not-called": "in a finished campaign without a call that ended",
};

/**
 * Per variant: contacts given it (the intention to treat) and why those without a call that ended
 * are missing, planned campaign by planned campaign: set aside before it, no campaign made, or
 * what became of its campaign (still running, stopped and why, finished without calling them).
 */
export function missingByVariant(
  facts: MissingFacts,
  assignments: readonly AssignmentFacts[],
): Map<string, { assigned: number; reasons: Partial<Record<MissingReason, number>> }> {
  const out = new Map<string, { assigned: number; reasons: Partial<Record<MissingReason, number>> }>();
  for (const a of assignments) {
    const v = out.get(a.variant) ?? { assigned: 0, reasons: {} };
    out.set(a.variant, v);
    const add = (reason: MissingReason, n: number) => {
      if (n > 0) v.reasons[reason] = (v.reasons[reason] ?? 0) + n;
    };
    v.assigned += a.assigned;
    add("set-aside", a.setAside);
    const made = a.assigned - a.setAside;
    const f = facts.get(a.key);
    if (!f || f.audience === 0) {
      add("no-campaign", made - (f?.called ?? 0));
      continue;
    }
    let uncalled = Math.max(0, made - f.called);
    const withdrawn = Math.min(uncalled, f.withdrawnAtStart ?? 0);
    add("opted-out", withdrawn);
    uncalled -= withdrawn;
    const stop = [...f.stops].map((s) => STOPPED[s]).find((r) => r !== undefined);
    add(f.active ? "waiting" : (stop ?? "not-called"), uncalled);
  }
  return out;
}
