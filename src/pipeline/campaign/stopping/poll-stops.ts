import type { Logger } from "pino";
import type { JobDefinition } from "../../../config/job-definition.ts";
import { maskPhonesIn } from "../../../lib/mask-phone.ts";
import { counted } from "../../../lib/plural.ts";
import type { PollOutcome } from "../../results/poll-campaign.ts";
import type { StoredCampaign } from "../../stores/campaign-store.ts";
import type { CampaignStop } from "../../stores/stop-store.ts";
import type { CampaignRequest, Intent } from "../lifecycle.ts";
import {
  afterStoppedPoll,
  overWithWithdrawnFor,
  resumeStopped,
  type StopCheckDeps,
  stopsDue,
  windowStopBegins,
} from "./stop-checks.ts";

/** What the stops around a poll use: the stop checks' deps (the stop store built once, daemon/services.ts). */
export interface PollStopsPort extends StopCheckDeps {
  logger: Pick<Logger, "info" | "warn">;
  now: () => number;
  /** Makes intents jobs (queue/intents.ts): the hand-back is asked for as the poll settles its stop. */
  request: (intents: Intent[]) => Promise<void>;
}

/**
 * Around one poll (poll-use-case.ts): the stops due before it (an operator's, the window's close,
 * opt-outs), the poll's rule that taken-out contacts don't keep a campaign open, and after it the
 * stop record kept up to date and, once the campaign finished, the hand-back asked for (an intent, its own job).
 * `periodMs`: the gap between two ticks of the job's poll schedule (a poll made due runs that late at most).
 */
export function pollStops(d: PollStopsPort, def: JobDefinition, campaignId: string, periodMs = 0) {
  /** The stops due now, from records this poll just stored. */
  const stopNow = async (stored: StoredCampaign) => {
    for (const r of await stopsDue(def, stored, d, d.now(), periodMs)) {
      if (r.state !== "stopped") continue;
      d.logger.info(
        { campaign: campaignId, reason: r.reason, taken: r.taken, stop: r.stop },
        `campaign ${campaignId}: ${counted(r.taken, "contact")} not yet called taken out (${r.reason})`,
      );
    }
  };
  return {
    overWithWithdrawn: overWithWithdrawnFor(def, d),
    /** The next poll's time, no later than the window-close stop's start while it has not been acted on. */
    async dueBy(due: number): Promise<number> {
      const stored = await d.store.get(campaignId);
      if (!stored) return due;
      const begins = await windowStopBegins(def, stored, d, periodMs);
      if (begins === undefined || begins >= due) return due;
      const stop = await d.stops.get(campaignId);
      return stop?.reasons.includes("window-closed") ? due : Math.max(begins, d.now());
    },
    /** `polledAt`: when the poll began (contacts taken out before it are checked against it). */
    async after(outcome: PollOutcome, polledAt: number): Promise<void> {
      const stored = await d.store.get(campaignId);
      if (!stored) return;
      const finished = outcome.ended && outcome.state === "finished";
      const settled = await afterStoppedPoll(def, stored.info, { polledAt, ended: finished }, d);
      if (settled?.changed && settled.stop.honoured === "no")
        d.logger.warn(
          {
            campaign: campaignId,
            calledAfter: settled.stop.calledAfter,
            ranPastWindow: settled.stop.ranPastWindow,
          },
          maskPhonesIn(
            `campaign ${campaignId}: the service still called ${counted(settled.stop.calledAfter, "contact")} deleted from its segment: it does not honour contacts.delete for a started campaign`,
          ),
        );
      if (finished && settled?.stop.handBack && settled.waiting.length > 0)
        await d.request([{ kind: "hand-back", job: def.name, campaignId }]);
      if (stored.info.state === "active") await stopNow(stored);
    },
  };
}

export type HandBackOutcome =
  | { kind: "none"; honoured?: CampaignStop["honoured"] | undefined }
  | { kind: "resume"; request: CampaignRequest; contacts: number };

/** A hand-back (a resume job): the contacts a window close took out, asked for at the next opening. */
export async function handBackOf(
  d: Omit<PollStopsPort, "request">,
  def: JobDefinition,
  campaignId: string,
): Promise<HandBackOutcome> {
  const stored = await d.store.get(campaignId);
  if (!stored) return { kind: "none" };
  const { settled, resume, contacts } = await resumeStopped(def, stored.info, d, d.now());
  if (!resume) return { kind: "none", honoured: settled?.stop.honoured };
  return { kind: "resume", request: resume, contacts: contacts ?? 0 };
}
