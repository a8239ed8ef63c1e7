import type { Job } from "bullmq";
import type { Logger } from "pino";
import { counted } from "../lib/plural.ts";
import type { FollowUpOutcome } from "../pipeline/campaign/follow-up.ts";
import type { HandBackOutcome } from "../pipeline/campaign/stopping/poll-stops.ts";
import { type FollowUpJobData, followUpJobKind } from "./queues.ts";

/**
 * The four kinds of job on the follow-up queue, each its use case bound once at the root
 * (use-cases.ts). A named record, not one function: the queue holds four unrelated jobs, and the
 * start check alone decides its own fate (it waits for its file's summary).
 */
export interface FollowUpWork {
  /** A finished campaign's follow-up; its campaign, when there is one, asked for. */
  followUp: (data: FollowUpJobData, owner: string) => Promise<FollowUpOutcome>;
  /** A hand-back: the contacts a window close took out; their campaign, when there is one, asked for. */
  resume: (data: FollowUpJobData) => Promise<HandBackOutcome>;
  startCheck: (job: Job<FollowUpJobData>, token?: string) => Promise<unknown>;
  lateLook: (data: FollowUpJobData) => Promise<unknown>;
}

/** The BullMQ processor of follow-up jobs: the follow-up use case, then its campaign asked for. */
export function createFollowUpProcessor(w: FollowUpWork, logger: Logger) {
  return async function processFollowUp(job: Job<FollowUpJobData>, token?: string) {
    const kind = followUpJobKind(job);
    if (kind === "start-check") return w.startCheck(job, token);
    if (kind === "late-look") return w.lateLook(job.data);
    if (kind === "resume") return resumed(await w.resume(job.data), job.data.campaignId, logger);
    const outcome = await w.followUp(job.data, `${job.id}#${job.attemptsStarted}`);
    if (outcome.kind === "none") return { contacts: 0 };
    logger.info(
      { campaign: job.data.campaignId, attempt: outcome.intent.request.attempt, contacts: outcome.contacts },
      "follow-up requested",
    );
    return { contacts: outcome.contacts, created: outcome.created, segmentId: outcome.segmentId };
  };
}

/** A resume job's result: the contacts a window close took out, called at the next opening. */
function resumed(outcome: HandBackOutcome, campaignId: string, logger: Logger) {
  if (outcome.kind === "none") return { contacts: 0, honoured: outcome.honoured };
  const { request: resume, contacts } = outcome;
  logger.info(
    { campaign: campaignId, resumed: resume.name, contacts, at: resume.notBefore },
    `campaign ${campaignId}: ${counted(contacts, "contact")} not called before its window closed are called by ${resume.name}`,
  );
  return { contacts, name: resume.name, segmentId: resume.segmentId };
}
