import type { Job } from "bullmq";
import { counted } from "../lib/plural.ts";
import { followUpOf } from "../pipeline/campaign/follow-up.ts";
import { handBackOf } from "../pipeline/campaign/stopping/poll-stops.ts";
import { applyIntents } from "./intents.ts";
import { processLateLook } from "./late-look.ts";
import { type FollowUpJobData, followUpJobKind } from "./queues.ts";
import { processStartCheck } from "./start-check.ts";
import { jobOf, type WorkDeps } from "./work-deps.ts";

/** The BullMQ processor of follow-up jobs: the follow-up use case, then its campaign asked for. */
export function createFollowUpProcessor(d: WorkDeps) {
  return async function processFollowUp(job: Job<FollowUpJobData>, token?: string) {
    const kind = followUpJobKind(job);
    if (kind === "start-check") return processStartCheck(d, job, token);
    if (kind === "late-look") return processLateLook(d, job);
    if (kind === "resume") return processResume(d, job);
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

/** A resume job: the contacts a window close took out, called at the next opening. */
async function processResume(d: WorkDeps, job: Job<FollowUpJobData>) {
  const { campaignId } = job.data;
  const outcome = await handBackOf(d, jobOf(d, job.data.job), campaignId);
  if (outcome.kind === "none") return { contacts: 0, honoured: outcome.honoured };
  const { request: resume, contacts } = outcome;
  await applyIntents([{ kind: "create-campaign", request: resume }], d);
  d.logger.info(
    { campaign: campaignId, resumed: resume.name, contacts, at: resume.notBefore },
    `campaign ${campaignId}: ${counted(contacts, "contact")} not called before its window closed are called by ${resume.name}`,
  );
  return { contacts, name: resume.name, segmentId: resume.segmentId };
}
