import type { Job } from "bullmq";
import { followUpOf } from "../pipeline/campaign/follow-up.ts";
import { applyIntents } from "./intents.ts";
import { processResume } from "./poll-stops.ts";
import type { FollowUpJobData } from "./queues.ts";
import { processStartCheck } from "./start-check.ts";
import { jobOf, type WorkDeps } from "./work-deps.ts";

/** The BullMQ processor of follow-up jobs: the follow-up use case, then its campaign asked for. */
export function createFollowUpProcessor(d: WorkDeps) {
  return async function processFollowUp(job: Job<FollowUpJobData>, token?: string) {
    if (job.data.check) return processStartCheck(d, job, token);
    if (job.data.resume) return processResume(d, jobOf(d, job.data.job), job.data.campaignId);
    const outcome = await followUpOf(
      jobOf(d, job.data.job),
      job.data.campaignId,
      `${job.id}#${job.attemptsStarted}`,
      d,
    );
    if (outcome.kind === "none") return { contacts: 0 };
    await applyIntents([outcome.intent], d);
    d.logger.info(
      { campaign: job.data.campaignId, attempt: outcome.intent.request.attempt, contacts: outcome.contacts },
      "follow-up requested",
    );
    return { contacts: outcome.contacts, created: outcome.created, segmentId: outcome.segmentId };
  };
}
