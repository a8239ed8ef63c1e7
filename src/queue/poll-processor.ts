import type { Job } from "bullmq";
import { pollCampaign } from "../pipeline/poll-campaign.ts";
import { enqueueSummary } from "./enqueue-summary.ts";
import { idPart, type PollJobData } from "./queues.ts";
import { jobOf, type WorkDeps } from "./work-deps.ts";

/** Polls one campaign; on its end, sends the final (or stuck) summary and starts a follow-up if asked. */
export function createPollProcessor(d: WorkDeps) {
  return async function processPoll(job: Job<PollJobData>) {
    const { campaignId } = job.data;
    const def = jobOf(d, job.data.job);
    const outcome = await pollCampaign(campaignId, {
      client: d.client,
      redis: d.redis,
      store: d.store,
      suppression: d.suppression,
      classes: def.polling.statuses,
      stuckAfterMs: def.polling.stuckAfterMinutes * 60_000,
      now: d.now,
      prefix: d.prefix,
    });
    if (outcome.ended) {
      const kind = outcome.state === "finished" ? "final" : "stuck";
      await enqueueSummary(d.queues, d.store, campaignId, def.summaries.sinks, kind, d.now());
      const stored = await d.store.get(campaignId);
      if (
        outcome.state === "finished" &&
        def.followUps &&
        stored &&
        stored.info.attempt < def.followUps.attempts
      ) {
        await d.queues.followUps.add(
          campaignId,
          { job: job.data.job, campaignId },
          { jobId: `follow-up-${idPart(campaignId)}` },
        );
      }
      d.logger.info(
        { campaign: campaignId, state: outcome.state, version: outcome.version },
        "campaign ended",
      );
    }
    return outcome;
  };
}
