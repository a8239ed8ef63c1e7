import { VcwError } from "../../lib/vcw-error.ts";

/**
 * A dialer create was sent and its answer lost: the spec has no dialer list, so whether it was
 * made can't be checked. It is never sent again on a guess: the operator says (`--adopt`).
 */
export class DialerOutcomeUnknownError extends VcwError {
  override name = "DialerOutcomeUnknownError";
  constructor(readonly dialer: string) {
    super(
      `dialer ${dialer}: a create was sent and its answer lost, and the spec has no dialer list to check whether it was made. ` +
        `Find its id on the service and run vcw apply --adopt ${dialer}=ID, or vcw apply --adopt ${dialer}=none to create it again`,
    );
  }
}

/** A create neither answered with an id nor found by its name, after every attempt. */
export class VersionNotCreatedError extends VcwError {
  override name = "VersionNotCreatedError";
}
