import { stopByOperator } from "../../pipeline/campaign/stopping/operator-stop.ts";
import { stopWords } from "../../pipeline/campaign/stopping/stop-summary.ts";
import { whyUnpolled } from "../read-model/unpolled-jobs.ts";
import type { ActionResult } from "./action.ts";
import type { ActionContext } from "./action-context.ts";

/**
 * `stop` of a campaign that exists (pipeline/campaign/stopping/operator-stop.ts), its outcome in
 * words. Undefined when vcw keeps no campaign of that id (the caller cancels a pending one).
 */
export async function stopStarted(
  ctx: ActionContext,
  id: string,
  now = Date.now(),
): Promise<ActionResult | undefined> {
  const outcome = await stopByOperator({ store: ctx.campaigns, stops: ctx.stops }, id, now);
  if (!outcome) return undefined;
  const { info } = outcome;
  switch (outcome.kind) {
    case "already-stopped":
      return {
        ok: true,
        count: 0,
        message: `campaign ${info.name} (${id}) was already stopped: ${stopWords(outcome.stop.withdrawn, outcome.stop.flagged)}`,
      };
    case "ended":
      return {
        ok: false,
        count: 0,
        message: `campaign ${info.name} (${id}) has ended (${info.state}): nothing left to stop`,
      };
    case "asked": {
      const asked = `stop of campaign ${info.name} (${id}) ${outcome.fresh ? "asked" : "already asked (another stop is being carried out)"}`;
      // Carried out by a poll: with nobody polling its job, it waits, and the service goes on calling.
      // Its own job, asked directly (not through the index of jobs with campaigns: maybe not written yet).
      const nobody = await whyUnpolled(ctx.campaigns, await ctx.presence.list(), info.job);
      return {
        ok: !nobody,
        count: outcome.fresh ? 1 : 0,
        message: nobody
          ? `${asked}, but no running daemon polls job ${info.job} (${nobody.reason}): it is carried out at its first poll, once you ${nobody.fix}; until then the service goes on calling`
          : `${asked}: its next poll takes every contact not yet called out of its segment; none is called later`,
        stopping: [id],
      };
    }
  }
}
