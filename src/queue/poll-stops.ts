import type { JobDefinition } from "../config/job-definition.ts";
import { maskPhonesIn } from "../lib/mask-phone.ts";
import { counted } from "../lib/plural.ts";
import {
  afterStoppedPoll,
  callUntilFor,
  overWithWithdrawnFor,
  resumeStopped,
  type StopCheckDeps,
  stopsDue,
} from "../pipeline/campaign/stop-checks.ts";
import { createStopStore } from "../pipeline/campaign/stop-store.ts";
import type { StoredCampaign } from "../pipeline/results/campaign-store.ts";
import type { PollOutcome } from "../pipeline/results/poll-campaign.ts";
import { applyIntents } from "./intents.ts";
import { resumeJobId } from "./job-ids.ts";
import type { WorkDeps } from "./work-deps.ts";

/** The stop checks' deps from the worker's. */
export function stopCheckDeps(d: WorkDeps): StopCheckDeps {
  return { ...d, stops: createStopStore(d.redis, d.keys, { retentionMs: d.retentionMs }) };
}

/**
 * Around one poll (poll-processor.ts): the stops due before it (an operator's, the window's close,
 * opt-outs), the poll's rule that taken-out contacts don't keep a campaign open, and after it the
 * stop record kept up to date and, once the campaign finished, the hand-back queued (its own job).
 */
export function pollStops(d: WorkDeps, def: JobDefinition, campaignId: string) {
  const deps = stopCheckDeps(d);
  /** The stops due now, from records this poll just stored. */
  const stopNow = async (stored: StoredCampaign) => {
    for (const r of await stopsDue(def, stored, deps, d.now())) {
      if (r.state !== "stopped") continue;
      d.logger.info(
        { campaign: campaignId, reason: r.reason, taken: r.taken, stop: r.stop },
        `campaign ${campaignId}: ${counted(r.taken, "contact")} not yet called taken out (${r.reason})`,
      );
    }
  };
  return {
    overWithWithdrawn: overWithWithdrawnFor(def, deps),
    /** The next poll's time, no later than the window's close while it has not been acted on. */
    async dueBy(due: number): Promise<number> {
      const stored = await d.store.get(campaignId);
      if (!stored) return due;
      const until = await callUntilFor(def, stored.info, deps);
      if (until === undefined || until >= due) return due;
      const stop = await deps.stops.get(campaignId);
      return stop?.reasons.includes("window-closed") ? due : Math.max(until, d.now());
    },
    /** `polledAt`: when the poll began (contacts taken out before it are checked against it). */
    async after(outcome: PollOutcome, polledAt: number): Promise<void> {
      const stored = await d.store.get(campaignId);
      if (!stored) return;
      const finished = outcome.ended && outcome.state === "finished";
      const settled = await afterStoppedPoll(def, stored.info, { polledAt, ended: finished }, deps);
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
        await d.queues.followUps.add(
          `${campaignId} resume`,
          { job: def.name, campaignId, resume: true },
          { jobId: resumeJobId(campaignId) },
        );
      if (stored.info.state === "active") await stopNow(stored);
    },
  };
}

/** A resume job (follow-ups queue): the contacts a window close took out, called at the next opening. */
export async function processResume(d: WorkDeps, def: JobDefinition, campaignId: string) {
  const stored = await d.store.get(campaignId);
  if (!stored) return { contacts: 0 };
  const deps = stopCheckDeps(d);
  const { settled, resume, contacts } = await resumeStopped(def, stored.info, deps, d.now());
  if (!resume) return { contacts: 0, honoured: settled?.stop.honoured };
  await applyIntents([{ kind: "create-campaign", request: resume }], d);
  d.logger.info(
    { campaign: campaignId, resumed: resume.name, contacts, at: resume.notBefore },
    `campaign ${campaignId}: ${counted(contacts ?? 0, "contact")} not called before its window closed are called by ${resume.name}`,
  );
  return { contacts: contacts ?? 0, name: resume.name, segmentId: resume.segmentId };
}
