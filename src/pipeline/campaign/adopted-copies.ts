import type { CountryCode } from "libphonenumber-js/max";
import type { Client } from "../../api/client.ts";
import type { SendFence } from "../../api/send-fence.ts";
import { e164OfServicePhone } from "../../lib/phone-e164.ts";
import type { CampaignInfo } from "../model/results.ts";
import type { CampaignRegistry } from "../stores/campaign-registry.ts";
import { deleteContacts } from "./segment-listing.ts";

type Store = Pick<CampaignRegistry, "get" | "register" | "setState" | "addFollowUp">;

/**
 * A copy of `info`'s name that another create made: kept as vcw's own (same file, identity and
 * name), so it is polled, reported and counted, and named in its parent's follow-ups as the copy
 * it replaces is (a follow-up's). Repeatable (NX writes, a follow-up named once).
 */
export async function adoptCopy(
  store: Pick<Store, "register" | "get" | "addFollowUp">,
  info: CampaignInfo,
  id: string,
  startedAt: string,
  now: number,
): Promise<void> {
  const adopted: CampaignInfo = { ...info, id, scheduledAt: startedAt, state: "active", followUps: [] };
  await store.register(adopted, now);
  await nameOnParent(store, info.parentId, id);
}

/** A follow-up named in its parent's `followUps` (its own create, an adopted copy of it); no parent: nothing. */
export async function nameOnParent(
  store: Pick<Store, "get" | "addFollowUp">,
  parentId: string | undefined,
  id: string,
): Promise<void> {
  if (!parentId) return;
  const parent = await store.get(parentId);
  if (parent) await store.addFollowUp(parentId, parent.info, id);
}

/** A copy emptied before its start, as vcw keeps it: ended (finished, no call), not polled on to `stuck`. */
export async function endEmptied(store: Pick<Store, "get" | "setState">, id: string): Promise<void> {
  const stored = await store.get(id);
  if (stored?.info.state === "active") await store.setState(id, stored.info.job, stored.info, "finished");
}

/** What emptying an own copy's segment came to, as the service lists it after the deletes. */
export interface Emptied {
  /** The people its audience lists: it started while the deletes ran (0: it starts with nobody). */
  calls: number;
  /** Its phones a late copy calls too, once per late copy: called twice. */
  calledTwice: string[];
}

/**
 * Empties the own copy's segment for started late copies (`contactIds`, fenced), then reads its
 * audience: a copy that started while the deletes ran calls whoever was not deleted yet, so what
 * it calls, and which of those the late copies call too, is counted from the service's listings.
 */
export async function emptyOwnCopy(
  client: Client,
  o: {
    ownId: string;
    lateIds: readonly string[];
    contactIds: readonly string[];
    fence: SendFence;
    country?: CountryCode | undefined;
  },
): Promise<Emptied> {
  await deleteContacts(client, o.contactIds, o.fence);
  const own = await audiencePhones(client, o.ownId, o.country);
  const calledTwice: string[] = [];
  for (const id of own.size > 0 ? o.lateIds : []) {
    const late = await audiencePhones(client, id, o.country);
    for (const phone of own) if (late.has(phone)) calledTwice.push(phone);
  }
  return { calls: own.size, calledTwice };
}

/** The phones a campaign's audience lists (E.164 where they read as phones). */
async function audiencePhones(client: Client, id: string, country?: CountryCode): Promise<Set<string>> {
  const entries = await client.campaigns.audiences(id);
  return new Set(entries.flatMap((e) => (e.phone ? [e164OfServicePhone(e.phone, country) ?? e.phone] : [])));
}
