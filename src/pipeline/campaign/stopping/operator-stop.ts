import type { CampaignInfo } from "../../model/results.ts";
import type { CampaignRegistry } from "../../stores/campaign-registry.ts";
import type { CampaignStop, StopStore } from "../../stores/stop-store.ts";

export type OperatorStop =
  | { kind: "already-stopped"; info: CampaignInfo; stop: CampaignStop }
  | { kind: "ended"; info: CampaignInfo }
  | { kind: "asked"; info: CampaignInfo; fresh: boolean };

/** What an operator's stop reads and writes: the campaign's record and poll, its stop. */
export interface OperatorStopPort {
  store: Pick<CampaignRegistry, "get" | "schedulePoll">;
  stops: Pick<StopStore, "get" | "request">;
}

/**
 * An operator's stop of a campaign vcw keeps: asked of the worker that polls it (its next poll takes
 * every contact not yet dialled out of its own segment, stop-campaign.ts, and hands none back), at
 * once (its poll made due now). Undefined when vcw keeps no campaign of that id.
 */
export async function stopByOperator(
  p: OperatorStopPort,
  id: string,
  now: number,
): Promise<OperatorStop | undefined> {
  const stored = await p.store.get(id);
  if (!stored) return undefined;
  const { info } = stored;
  const stop = await p.stops.get(id);
  if (stop?.reasons.includes("operator")) return { kind: "already-stopped", info, stop };
  if (info.state !== "active") return { kind: "ended", info };
  const fresh = await p.stops.request(id, now);
  await p.store.schedulePoll(info.job, id, now);
  return { kind: "asked", info, fresh };
}
