import { isFinalStatus, type StatusClasses } from "../model/campaign-totals.ts";

/** A number's call that ended: when a poll first saw it final, and the last final status seen. */
export interface CallEnd {
  at: number;
  status: string;
}

/**
 * The calls that ended, per number, from a campaign's transitions fed oldest first. A final status
 * changed to another one later (a callee who opts out after a call) keeps the first time and takes
 * the last status; a number back to pending (a retry inside the campaign) ends again later.
 */
export class CallEnds {
  readonly ends = new Map<string, CallEnd>();
  constructor(private readonly classes: StatusClasses) {}

  add(t: { phone: string; to: string; at: number }): void {
    const final = isFinalStatus(t.to, this.classes) || this.classes.optedOut.includes(t.to);
    const known = this.ends.get(t.phone);
    if (!final) {
      if (known && t.to !== "") this.ends.delete(t.phone);
      return;
    }
    if (known) known.status = t.to;
    else this.ends.set(t.phone, { at: t.at, status: t.to });
  }
}
