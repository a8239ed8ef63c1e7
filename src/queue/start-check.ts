import type { Job } from "bullmq";
import { maskPhonesIn } from "../lib/mask-phone.ts";
import { checkBeforeStart, startCheckAt } from "../pipeline/campaign/start-check.ts";
import { noteCheckInSummary } from "../pipeline/files/summary-checks.ts";
import type { CampaignInfo } from "../pipeline/results/model.ts";
import { delayJob } from "./delay-job.ts";
import { applyIntents } from "./intents.ts";
import { startCheckJobId } from "./job-ids.ts";
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
  const at = Number.isFinite(startAt) ? startCheckAt(startAt, d.settleMs ?? 0, d.startLeadMs) : d.now();
  await d.queues.followUps.add(
    "start-check",
    { job: info.job, campaignId: info.id },
    // Gone once done (its result is kept on the campaign and in the summary): readers of the queue see follow-ups.
    {
      jobId: startCheckJobId(info.id),
      delay: Math.max(0, at - d.now()),
      removeOnComplete: true,
      removeOnFail: { age: 7 * 86_400 },
    },
  );
}

/** A copy a repair emptied, as vcw keeps it: ended (finished, no call), not polled on to `stuck`. */
async function endEmptied(d: WorkDeps, id: string): Promise<void> {
  const stored = await d.store.get(id);
  if (stored?.info.state === "active") await d.store.setState(id, stored.info.job, stored.info, "finished");
}

/**
 * A copy of `info`'s name that another create made and the service started: kept as vcw's own
 * (same file, identity and name), so it is polled, reported and counted. Repeatable (NX writes).
 */
async function adoptCopy(d: WorkDeps, info: CampaignInfo, id: string, startedAt: string): Promise<void> {
  const adopted: CampaignInfo = { ...info, id, scheduledAt: startedAt, state: "active", followUps: [] };
  await d.store.register(adopted, d.now());
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
  for (const id of check.adopt ?? []) await adoptCopy(d, info, id, result.at);
  if (repair) await applyIntents([{ kind: "create-campaign", request: repair }], d);
  for (const id of check.emptied ?? []) await endEmptied(d, id);
  const noted = await noteCheckInSummary(def, info, result, { ...d });
  if (noted === "not-yet" && token) return delayJob(job, token, Date.now() + 2_000);
  return { checked: true, ...result };
}
