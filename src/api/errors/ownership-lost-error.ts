import { VcwError } from "../../lib/vcw-error.ts";

/**
 * A create was about to leave but its sender no longer owns it (the ledger claim or the create's
 * lock was taken over, expired, or the job's lock was lost): it was not sent. Control flow, not a
 * failure of the service: whoever owns it now sends it.
 */
export class OwnershipLostError extends VcwError {
  override name = "OwnershipLostError";
  constructor(
    what: string,
    /** Why: `taken` (another owner), `wiped` (Redis lost the ledger), `stopped` (the job's lock or signal). */
    readonly reason: "taken" | "wiped" | "stopped",
  ) {
    super(`${what} was not sent: its sender no longer owns it (${reason})`);
  }
}
