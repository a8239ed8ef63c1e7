import type { RedisClient } from "../../../lib/redis.ts";
import type { RedisKeys } from "../../../lib/redis-keys.ts";
import { createCampaignStore } from "../../results/campaign-store.ts";
import type { CampaignInfo } from "../../results/model.ts";
import { type CampaignStop, createStopStore } from "./stop-store.ts";

export type OperatorStop =
  | { kind: "already-stopped"; info: CampaignInfo; stop: CampaignStop }
  | { kind: "ended"; info: CampaignInfo }
  | { kind: "asked"; info: CampaignInfo; fresh: boolean };

/**
 * An operator's stop of a campaign vcw keeps: asked of the worker that polls it (its next poll takes
 * every contact not yet dialled out of its own segment, stop-campaign.ts, and hands none back), at
 * once (its poll made due now). Undefined when vcw keeps no campaign of that id.
 */
export async function stopByOperator(
  d: { redis: RedisClient; keys: RedisKeys },
  id: string,
  now: number,
): Promise<OperatorStop | undefined> {
  const store = createCampaignStore(d.redis, d.keys);
  const stored = await store.get(id);
  if (!stored) return undefined;
  const { info } = stored;
  const stops = createStopStore(d.redis, d.keys);
  const stop = await stops.get(id);
  if (stop?.reasons.includes("operator")) return { kind: "already-stopped", info, stop };
  if (info.state !== "active") return { kind: "ended", info };
  const fresh = await stops.request(id, now);
  await store.schedulePoll(info.job, id, now);
  return { kind: "asked", info, fresh };
}
