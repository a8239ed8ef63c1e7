import type { ResultRecord } from "../../model/results.ts";

/**
 * Which contacts of a started campaign are not called yet, and what became of those taken out.
 * Pure. "Not dialled" is a status of a call not begun: none yet, or pending but not under way
 * (the job's `polling.pending` less its `polling.inFlight`: `queued` by default).
 */

export interface DialStatuses {
  pending: readonly string[];
  inFlight: readonly string[];
}

/** A call not begun: no record, no status, or pending and not under way. */
export const notDialled = (record: Pick<ResultRecord, "status"> | undefined, s: DialStatuses) =>
  !record ||
  record.status === "" ||
  (s.pending.includes(record.status) && !s.inFlight.includes(record.status));

/** The contacts whose call has not begun (records in the same order as `contacts`). */
export function undialled<C>(
  contacts: readonly C[],
  records: readonly (ResultRecord | undefined)[],
  s: DialStatuses,
): C[] {
  return contacts.filter((_, i) => notDialled(records[i], s));
}

/** What the polls show of contacts taken out: those dialled anyway, and those still not dialled. */
export interface WithdrawnState {
  dialled: number;
  waiting: number;
}

export function withdrawnState(
  records: readonly (ResultRecord | undefined)[],
  s: DialStatuses,
): WithdrawnState {
  let dialled = 0;
  for (const r of records) if (!notDialled(r, s)) dialled += 1;
  return { dialled, waiting: records.length - dialled };
}

/**
 * Whether a campaign with contacts taken out is over: every other contact's call is final
 * (`waitingPolled`: those taken out that a poll stored, still not dialled) and the service lists
 * no entry that is not final (`listed`: phones its last audience held), so none of them can still
 * be dialled. A service that still lists them may yet dial them: then the campaign waits (and is
 * flagged if it does).
 */
export function overWithWithdrawn(
  totals: { contacts: number; final: number },
  waiting: number,
  waitingPolled: number,
  listed: number | undefined,
): boolean {
  if (waiting === 0 || listed === undefined) return false;
  return totals.final + waitingPolled === totals.contacts && listed <= totals.final;
}
