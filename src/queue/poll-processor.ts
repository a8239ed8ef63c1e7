import type { Job } from "bullmq";
import type { JobDefinition } from "../config/job-definition.ts";
import type { Intent } from "../pipeline/campaign/lifecycle.ts";
import { type PolledCampaign, pollUseCase } from "../pipeline/campaign/poll-use-case.ts";
import { guardExperiment } from "./experiment-guard.ts";
import { applyIntents } from "./intents.ts";
import { reportLateCopies } from "./late-look.ts";
import type { PollJobData } from "./queues.ts";
import { jobOf, type WorkDeps } from "./work-deps.ts";

/**
 * Polls a worker runs at once. A poll mostly waits (the service, Redis): at 4, a worker could not
 * keep 2,000 calling campaigns on a 10 s schedule once a poll took 20 ms. Memory stays bounded per
 * poll (the index of its campaign, 2,000 changes at most), so 16 big campaigns at once still fit.
 */
export const POLL_CONCURRENCY = 16;

/** The BullMQ processor of poll jobs: the poll use case, its intents applied, what it found logged. */
export function createPollProcessor(d: WorkDeps) {
  // Each poll joins the trace its campaign was created in (the tick that enqueued it is linked).
  return (job: Job<PollJobData>) =>
    d.traces.run(job.data.campaignId, "vcw.poll", POLL_SPAN(job), async (span) => {
      const def = jobOf(d, job.data.job);
      const request = (intents: Intent[]) => applyIntents(intents, d);
      const polled = await pollUseCase({ ...d, request }, def, job.data);
      await follow(d, def, job.data.campaignId, polled);
      span?.setAttributes({ "vcw.poll.changed": polled.poll.changed, "vcw.poll.state": polled.poll.state });
      return polled.poll;
    });
}

/** What a poll asked for, done: the guardrail's look, warnings, the intents made jobs. */
async function follow(d: WorkDeps, def: JobDefinition, campaignId: string, polled: PolledCampaign) {
  const { poll } = polled;
  if (polled.guard)
    await guardExperiment(d, def, poll.ended).catch((error: unknown) =>
      d.logger.warn({ job: def.name, err: String(error) }, "experiment guardrail: no look this time"),
    );
  for (const status of poll.newUnknownStatuses ?? [])
    d.logger.warn(
      { campaign: campaignId, job: def.name, status, countsAs: def.polling.statuses.unknownIs },
      `campaign ${campaignId} shows status "${status}", in no list of polling.statuses: counted as ${def.polling.statuses.unknownIs} and under unknown (add it to a list in the job)`,
    );
  if (poll.unreadable)
    d.logger.warn(
      { campaign: campaignId, unreadable: poll.unreadable },
      "the service's audience held entries, fields or phones that could not be read: the rest was kept (phones not E.164 as written)",
    );
  if (polled.lateCopies && "failed" in polled.lateCopies)
    d.logger.warn(
      { campaign: campaignId, job: def.name, err: polled.lateCopies.failed },
      "no look for late copies at this poll: the next poll looks",
    );
  else if (polled.lateCopies) await reportLateCopies(d, def, polled.lateCopies);
  await applyIntents(polled.intents, d);
  if (poll.ended)
    d.logger.info({ campaign: campaignId, state: poll.state, version: poll.version }, "campaign ended");
}

const POLL_SPAN = (job: Job<PollJobData>) => ({
  attributes: { "vcw.job": job.data.job, "vcw.campaign.id": job.data.campaignId },
});
