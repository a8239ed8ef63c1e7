import type { CampaignInfo } from "../model/results.ts";
import type { CampaignRegistry } from "../stores/campaign-registry.ts";

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
