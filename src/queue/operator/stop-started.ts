import { counted } from "../../lib/plural.ts";
import { createStopStore } from "../../pipeline/campaign/stop-store.ts";
import { createCampaignStore } from "../../pipeline/results/campaign-store.ts";
import type { ActionResult } from "./action.ts";
import type { ActionContext } from "./action-context.ts";

/**
 * `stop` of a campaign that exists: asks the worker that polls it to take every contact not yet
 * dialled out of its own segment (stop-campaign.ts), at once (its poll is made due now), and hands
 * none back. Undefined when vcw keeps no campaign of that id (the caller cancels a pending one).
 */
export async function stopStarted(
  ctx: ActionContext,
  id: string,
  now = Date.now(),
): Promise<ActionResult | undefined> {
  const store = createCampaignStore(ctx.redis, ctx.keys);
  const stored = await store.get(id);
  if (!stored) return undefined;
  const { info } = stored;
  const stops = createStopStore(ctx.redis, ctx.keys);
  const stop = await stops.get(id);
  if (stop?.reasons.includes("operator"))
    return {
      ok: true,
      count: 0,
      message: `campaign ${info.name} (${id}) was already stopped: ${stopWords(stop.withdrawn, stop.flagged)}`,
    };
  if (info.state !== "active")
    return {
      ok: false,
      count: 0,
      message: `campaign ${info.name} (${id}) has ended (${info.state}): nothing left to stop`,
    };
  const fresh = await stops.request(id, now);
  await store.schedulePoll(info.job, id, now);
  return {
    ok: true,
    count: fresh ? 1 : 0,
    message: `stop of campaign ${info.name} (${id}) ${fresh ? "asked" : "already asked (another stop is being carried out)"}: its next poll takes every contact not yet called out of its segment; none is called later`,
    stopping: [id],
  };
}

/** What a stop did, in words. */
export const stopWords = (withdrawn: number, flagged: number) =>
  flagged > 0
    ? `${counted(flagged, "contact")} not yet called are in the job's standing segment: vcw can't take them out (flagged)`
    : `${counted(withdrawn, "contact")} not yet called taken out of its segment`;
