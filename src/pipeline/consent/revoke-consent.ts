import { chunksOf } from "../../lib/chunks.ts";
import type { ConsentStore } from "../stores/consent-store.ts";
import type { SuppressionList } from "../stores/suppression.ts";

export interface RevokeDeps {
  consent: Pick<ConsentStore, "revoke">;
  suppression: Pick<SuppressionList, "add">;
}

/**
 * The one way consent is revoked (a call's opt-out, a file's revocation column, `vcw consent
 * revoke`, and the operator's `consent-revoke` action, sent to `POST /api/actions` and run by
 * queue/operator/run-action.ts: no page has a field for it): the time received kept per number, and
 * the number suppressed for every job, so the import, the audience and the check before a start
 * leave it out as they leave an opt-out out (decision 0067). Each batch of 1,000 is suppressed
 * before its consent is marked revoked: a failure between the two leaves a number suppressed (not
 * called), never revoked but still callable.
 */
export async function revokeConsent(
  phones: readonly string[],
  at: number,
  via: string,
  d: RevokeDeps,
): Promise<void> {
  for (const part of chunksOf(phones)) {
    await d.suppression.add(part);
    await d.consent.revoke(part, at, via);
  }
}
