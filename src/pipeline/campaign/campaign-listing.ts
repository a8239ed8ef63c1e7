import type { Client } from "../../api/client.ts";
import type { Campaign } from "../../api/schemas/index.ts";

/** How long one listing of the account's campaigns serves the checks that ask for it (from its request). */
export const LISTING_FRESH_MS = 1_000;

/**
 * The account's campaigns, as listed at or after `since` (epoch ms; absent: `LISTING_FRESH_MS`
 * ago). A start check asks for a fresh one; a poll's look for late copies asks for one no older
 * than its tick, so every poll of a tick reads one listing.
 */
export type CampaignLister = (since?: number) => Promise<Campaign[]>;

/**
 * One `campaigns.list` shared by every start check and poll of this process that asks while it is
 * in flight or was requested no earlier than the caller's `since`: the checks and polls due in one
 * tick cost one listing, not one each (the spec has no lookup by name). A listing that fails (a
 * timeout) fails the callers waiting on it, whose jobs are retried, and serves nobody after: the
 * next caller lists again.
 */
export function sharedCampaignListing(
  client: Pick<Client, "campaigns">,
  o: { now: () => number; freshMs?: number },
): CampaignLister {
  const freshMs = o.freshMs ?? LISTING_FRESH_MS;
  let last: { at: number; listing: Promise<Campaign[]> } | undefined;
  return (since) => {
    const at = o.now();
    if (last && last.at >= (since ?? at - freshMs + 1)) return last.listing;
    const entry = { at, listing: client.campaigns.list() };
    last = entry;
    entry.listing.catch(() => {
      if (last === entry) last = undefined;
    });
    return entry.listing;
  };
}

const byName = new WeakMap<object, Map<string, unknown[]>>();

/** The campaigns of `name` in a listing, indexed once per listing (10,000 campaigns, many polls). */
export function namedIn<C extends Pick<Campaign, "campaigns_name">>(
  listing: readonly C[],
  name: string,
): C[] {
  let index = byName.get(listing) as Map<string, C[]> | undefined;
  if (!index) {
    index = new Map();
    for (const c of listing) {
      const n = c.campaigns_name ?? "";
      const same = index.get(n);
      if (same) same.push(c);
      else index.set(n, [c]);
    }
    byName.set(listing, index);
  }
  return index.get(name) ?? [];
}
