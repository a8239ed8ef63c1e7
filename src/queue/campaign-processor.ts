import type { Job } from "bullmq";
import { zonedTime } from "../lib/zoned-time.ts";
import {
  type CreateCampaignPort,
  type CreateOutcome,
  createCampaign,
} from "../pipeline/campaign/create-use-case.ts";
import { campaignRecords } from "../pipeline/resources/campaign-records.ts";
import { delayJob } from "./delay-job.ts";
import { failFastOnPermanent } from "./failures.ts";
import type { CampaignResult } from "./job-results.ts";
import type { CampaignJobData } from "./queues.ts";
import { scheduleStartCheck } from "./start-check.ts";
import { jobOf, type WorkDeps } from "./work-deps.ts";

/** The BullMQ processor of campaign jobs: the create use case, its outcome mapped to the job's fate. */
export function createCampaignProcessor(d: WorkDeps) {
  const port: CreateCampaignPort = {
    ...d,
    records: (def, key, now, variant, dialer) => campaignRecords(d, def, key, now, variant, dialer),
    rememberTrace: (id) => d.traces.remember(id),
    scheduleStartCheck: (info) => scheduleStartCheck(d, info),
  };
  return (job: Job<CampaignJobData>, token?: string) =>
    failFastOnPermanent(async () => {
      const outcome = await createCampaign(port, jobOf(d, job.data.job), job.data, {
        canWait: token !== undefined,
      });
      return fateOf(outcome, job, token, d);
    });
}

/** The job's fate, decided once: completed (with what was made), or delayed (not an attempt). */
async function fateOf(
  outcome: CreateOutcome,
  job: Job<CampaignJobData>,
  token: string | undefined,
  d: Pick<WorkDeps, "pausedRetryMs" | "logger">,
): Promise<CampaignResult> {
  const { data } = job;
  switch (outcome.kind) {
    case "created":
    case "found": {
      const { info } = outcome;
      const created = outcome.kind === "created";
      // The start in words, and why then when vcw held it (a service without keys: VCW_SETTLE_MS).
      const starts = `at ${zonedTime(info.scheduledAt, info.zone ?? "UTC")}${info.startReason ? ` (${info.startReason})` : ""}`;
      d.logger.info(
        { job: data.job, campaign: info.id, name: info.name, scheduledAt: info.scheduledAt, starts, created },
        "campaign ready",
      );
      return { id: outcome.id, created };
    }
    case "canceled":
      d.logger.info({ job: data.job, name: data.name }, "campaign canceled before it was created");
      return { canceled: true };
    case "too-late":
      // Never called late: a campaign (a follow-up, one created after a long outage) past callBy or any opening.
      d.logger.warn(
        { job: data.job, name: data.name, reason: outcome.reason },
        "campaign not made: no opening left for it",
      );
      return { tooLate: outcome.reason };
    case "paused":
      return delayJob(job, token, Date.now() + (d.pausedRetryMs ?? 5_000));
    case "unresolved":
      d.logger.warn(
        { job: data.job, name: data.name, lookAgainInMs: outcome.lookAgainInMs, err: outcome.cause },
        outcome.message,
      );
      return delayJob(job, token, outcome.lookAgainAt);
  }
}
