import type { Job } from "bullmq";
import type { Logger } from "pino";
import { zonedTime } from "../lib/zoned-time.ts";
import type { CreateAttempt, CreateOutcome } from "../pipeline/campaign/create-use-case.ts";
import { delayJob } from "./delay-job.ts";
import { failFastOnPermanent } from "./failures.ts";
import type { CampaignResult } from "./job-results.ts";
import type { CampaignJobData } from "./queues.ts";

/** The create use case, bound once to its port at the root (use-cases.ts): a campaign job's data in, its outcome out. */
export type CreateCampaign = (data: CampaignJobData, attempt: CreateAttempt) => Promise<CreateOutcome>;

/** What the outcome is mapped with: the log, and how soon a paused job looks again. */
export interface CampaignFate {
  logger: Logger;
  pausedRetryMs?: number | undefined;
}

/** The BullMQ processor of campaign jobs: the create use case, its outcome mapped to the job's fate. */
export function createCampaignProcessor(create: CreateCampaign, o: CampaignFate) {
  return (job: Job<CampaignJobData>, token?: string) =>
    failFastOnPermanent(async () =>
      fateOf(await create(job.data, { canWait: token !== undefined }), job, token, o),
    );
}

/** The job's fate, decided once: completed (with what was made), or delayed (not an attempt). */
async function fateOf(
  outcome: CreateOutcome,
  job: Job<CampaignJobData>,
  token: string | undefined,
  o: CampaignFate,
): Promise<CampaignResult> {
  const { data } = job;
  switch (outcome.kind) {
    case "created":
    case "found": {
      const { info } = outcome;
      const created = outcome.kind === "created";
      // The start in words, and why then when vcw held it (a service without keys: VCW_SETTLE_MS).
      const starts = `at ${zonedTime(info.scheduledAt, info.zone ?? "UTC")}${info.startReason ? ` (${info.startReason})` : ""}`;
      o.logger.info(
        { job: data.job, campaign: info.id, name: info.name, scheduledAt: info.scheduledAt, starts, created },
        "campaign ready",
      );
      return { id: outcome.id, created };
    }
    case "canceled":
      o.logger.info({ job: data.job, name: data.name }, "campaign canceled before it was created");
      return { canceled: true };
    case "too-late":
      // Never called late: a campaign (a follow-up, one created after a long outage) past callBy or any opening.
      o.logger.warn(
        { job: data.job, name: data.name, reason: outcome.reason },
        "campaign not made: no opening left for it",
      );
      return { tooLate: outcome.reason };
    case "paused":
      return delayJob(job, token, Date.now() + (o.pausedRetryMs ?? 5_000));
    case "unresolved":
      o.logger.warn(
        { job: data.job, name: data.name, lookAgainInMs: outcome.lookAgainInMs, err: outcome.cause },
        outcome.message,
      );
      return delayJob(job, token, outcome.lookAgainAt);
  }
}
