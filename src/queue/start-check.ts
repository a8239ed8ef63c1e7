import type { Job } from "bullmq";
import { maskPhonesIn } from "../lib/mask-phone.ts";
import { adoptCopy, endEmptied } from "../pipeline/campaign/adopted-copies.ts";
import { checkBeforeStart, lateLookAt, startCheckAt } from "../pipeline/campaign/start-check.ts";
import { noteCheckInSummary } from "../pipeline/files/summary-checks.ts";
import type { CampaignInfo } from "../pipeline/model/results.ts";
import { delayJob } from "./delay-job.ts";
import { applyIntents } from "./intents.ts";
import { lateLookJobId, startCheckJobId } from "./job-ids.ts";
import type { FollowUpJobData } from "./queues.ts";
import { jobOf, type WorkDeps } from "./work-deps.ts";

/** The check before `info`'s start, queued once (its id) for a little before the start (the create left room). */
export async function scheduleStartCheck(
  d: Pick<WorkDeps, "queues" | "settleMs" | "startLeadMs" | "now">,
  info: CampaignInfo,
): Promise<void> {
  // Neither a settle time nor a start lead (both set to 0): the start is the create, too soon to check.
  if (!d.settleMs && !d.startLeadMs) return;
  const startAt = Date.parse(info.scheduledAt);
  const known = Number.isFinite(startAt);
  const settle = d.settleMs ?? 0;
  const at = known ? startCheckAt(startAt, settle, d.startLeadMs) : d.now();
  await addBeforeStart(d, "start-check", startCheckJobId(info.id), info, at);
  // Then once more right before the start: a copy landing after the check (late-look.ts).
  if (known)
    await addBeforeStart(
      d,
      "late-look",
      lateLookJobId(info.id),
      info,
      lateLookAt(startAt, settle, d.startLeadMs),
    );
}

async function addBeforeStart(
  d: Pick<WorkDeps, "queues" | "now">,
  name: "start-check" | "late-look",
  jobId: string,
  info: CampaignInfo,
  at: number,
) {
  // Gone once done (its result is kept on the campaign and in the summary): readers of the queue see follow-ups.
  await d.queues.followUps.add(
    name,
    { job: info.job, campaignId: info.id },
    { jobId, delay: Math.max(0, at - d.now()), removeOnComplete: true, removeOnFail: { age: 7 * 86_400 } },
  );
}

/**
 * Runs the check (repeatable: its result is kept once per campaign), logs what it repaired, asks
 * for the fresh campaign of a repair, and writes the result into the file's summary, waiting for
 * the summary if the file is not settled yet.
 */
export async function processStartCheck(d: WorkDeps, job: Job<FollowUpJobData>, token?: string) {
  const def = jobOf(d, job.data.job);
  const check = await checkBeforeStart(def, job.data.campaignId, d);
  if (!check) return { checked: false };
  const { info, result, repair } = check;
  const log = { job: info.job, campaign: info.id, name: maskPhonesIn(info.name), ...result };
  if (result.campaignsRepaired > 0 || result.duplicatesRemoved > 0 || result.withdrawn > 0)
    d.logger.warn(log, maskPhonesIn(`campaign "${info.name}" repaired before its start`));
  else d.logger.info(log, "campaign checked before its start");
  if (result.calledTwice)
    d.logger.error(
      log,
      "a second campaign of this name started before the check: its people are called twice",
    );
  else if (result.copiesAdopted)
    d.logger.warn(
      log,
      "a late copy of this campaign had started: its own copy emptied, the started one adopted",
    );
  else if (result.startedBeforeCheck)
    d.logger.warn(log, "campaign checked after its start: nothing repaired");
  for (const id of check.adopt ?? []) await adoptCopy(d.store, info, id, result.at, d.now());
  if (repair) await applyIntents([{ kind: "create-campaign", request: repair }], d);
  for (const id of check.emptied ?? []) await endEmptied(d.store, id);
  const noted = await noteCheckInSummary(def, info, result, { ...d });
  if (noted === "not-yet" && token) return delayJob(job, token, Date.now() + 2_000);
  return { checked: true, ...result };
}
