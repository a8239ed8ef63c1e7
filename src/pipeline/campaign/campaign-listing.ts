import type { Client } from "../../api/client.ts";
import type { Campaign } from "../../api/schemas/index.ts";

/** How long one listing of the account's campaigns serves the checks that ask for it (from its request). */
export const LISTING_FRESH_MS = 1_000;

/**
 * One `campaigns.list` shared by every start check of this process that asks while it is in flight
 * or within `freshMs` of its request: checks due in one tick cost one listing, not one each (the
 * spec has no lookup by name). A listing that fails (a timeout) fails the checks waiting on it, whose
 * jobs are retried, and serves nobody after: the next check lists again.
 */
export function sharedCampaignListing(
  client: Pick<Client, "campaigns">,
  o: { now: () => number; freshMs?: number },
): () => Promise<Campaign[]> {
  const freshMs = o.freshMs ?? LISTING_FRESH_MS;
  let last: { at: number; listing: Promise<Campaign[]> } | undefined;
  return () => {
    const at = o.now();
    if (last && at - last.at < freshMs) return last.listing;
    const entry = { at, listing: client.campaigns.list() };
    last = entry;
    entry.listing.catch(() => {
      if (last === entry) last = undefined;
    });
    return entry.listing;
  };
}
