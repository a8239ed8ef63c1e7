import type { Job } from "bullmq";
import type { PollOutcome } from "../pipeline/results/poll-campaign.ts";
import type { CampaignTraces } from "../telemetry/campaign-trace.ts";
import type { PollJobData } from "./queues.ts";

/**
 * Polls a worker runs at once. A poll mostly waits (the service, Redis): at 4, a worker could not
 * keep 2,000 calling campaigns on a 10 s schedule once a poll took 20 ms. Memory stays bounded per
 * poll (the index of its campaign, 2,000 changes at most), so 16 big campaigns at once still fit.
 */
export const POLL_CONCURRENCY = 16;

/**
 * The poll use case and what follows it (the guardrail's look, late copies, warnings, its intents
 * made jobs), bound once at the root (use-cases.ts) as one function: each of those collaborators acts
 * on what the poll found, none decides the job's fate, so the worker needs only the poll's outcome.
 */
export type PollAndFollow = (data: PollJobData) => Promise<PollOutcome>;

/** The BullMQ processor of poll jobs: the poll and what follows it, inside its campaign's trace. */
export function createPollProcessor(poll: PollAndFollow, traces: Pick<CampaignTraces, "run">) {
  // Each poll joins the trace its campaign was created in (the tick that enqueued it is linked).
  return (job: Job<PollJobData>) =>
    traces.run(job.data.campaignId, "vcw.poll", POLL_SPAN(job), async (span) => {
      const polled = await poll(job.data);
      span?.setAttributes({ "vcw.poll.changed": polled.changed, "vcw.poll.state": polled.state });
      return polled;
    });
}

const POLL_SPAN = (job: Job<PollJobData>) => ({
  attributes: { "vcw.job": job.data.job, "vcw.campaign.id": job.data.campaignId },
});
