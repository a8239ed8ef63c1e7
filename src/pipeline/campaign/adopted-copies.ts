import type { CampaignInfo } from "../model/results.ts";
import type { CampaignRegistry } from "../stores/campaign-registry.ts";

type Store = Pick<CampaignRegistry, "get" | "register" | "setState">;

/**
 * A copy of `info`'s name that another create made: kept as vcw's own (same file, identity and
 * name), so it is polled, reported and counted. Repeatable (NX writes).
 */
export async function adoptCopy(
  store: Pick<Store, "register">,
  info: CampaignInfo,
  id: string,
  startedAt: string,
  now: number,
): Promise<void> {
  const adopted: CampaignInfo = { ...info, id, scheduledAt: startedAt, state: "active", followUps: [] };
  await store.register(adopted, now);
}

/** A copy emptied before its start, as vcw keeps it: ended (finished, no call), not polled on to `stuck`. */
export async function endEmptied(store: Pick<Store, "get" | "setState">, id: string): Promise<void> {
  const stored = await store.get(id);
  if (stored?.info.state === "active") await store.setState(id, stored.info.job, stored.info, "finished");
}
