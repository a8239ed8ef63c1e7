import type { Job } from "bullmq";
import { maskPhonesIn } from "../lib/mask-phone.ts";
import { adoptCopy, endEmptied } from "../pipeline/campaign/adopted-copies.ts";
import { deletesTakeMs, rateNow } from "../pipeline/campaign/segment-listing.ts";
import { checkBeforeStart, lateLookAt, startCheckAt } from "../pipeline/campaign/start-check.ts";
import { noteCheckInSummary } from "../pipeline/files/summary-checks.ts";
import type { CampaignInfo } from "../pipeline/model/results.ts";
import { delayJob } from "./delay-job.ts";
import { applyIntents } from "./intents.ts";
import { lateLookJobId, startCheckJobId } from "./job-ids.ts";
import { logCalledTwice, STARTED_WHILE_EMPTIED } from "./late-look.ts";
import type { FollowUpJobData } from "./queues.ts";
import { jobOf, type WorkDeps } from "./work-deps.ts";

type ScheduleDeps = Pick<WorkDeps, "queues" | "settleMs" | "startLeadMs" | "now" | "requestRate">;

/**
 * The check before `info`'s start, queued once (its id) for a little before the start (the create
 * left room), and the look for late copies after it. Both ahead by the deletes of its `contacts` at
 * the shared rate (an emptying they begin lands before the start); the check re-times the look with
 * the contacts it listed.
 */
export async function scheduleStartCheck(d: ScheduleDeps, info: CampaignInfo, contacts = 0): Promise<void> {
  // Neither a settle time nor a start lead (both set to 0): the start is the create, too soon to check.
  if (!d.settleMs && !d.startLeadMs) return;
  const startAt = Date.parse(info.scheduledAt);
  if (!Number.isFinite(startAt)) {
    await addBeforeStart(d, "start-check", startCheckJobId(info.id), info, d.now());
    return;
  }
  const ahead = await startLessDeletes(d, startAt, contacts);
  const settle = d.settleMs ?? 0;
  await addBeforeStart(
    d,
    "start-check",
    startCheckJobId(info.id),
    info,
    startCheckAt(ahead, settle, d.startLeadMs),
  );
  // Then once more right before the start: a copy landing after the check (late-look.ts).
  await addBeforeStart(
    d,
    "late-look",
    lateLookJobId(info.id),
    info,
    lateLookAt(ahead, settle, d.startLeadMs),
  );
}

/** The start less the deletes of `contacts` at the shared rate now: an emptying begun by then is done by the start. */
async function startLessDeletes(d: Pick<WorkDeps, "requestRate">, startAt: number, contacts: number) {
  return startAt - deletesTakeMs(contacts, await rateNow(d.requestRate));
}

/**
 * The look queued with the check moved earlier when the segment the check listed takes longer to
 * empty than its create foresaw (a follow-up's contacts are not known at its create); never before now.
 */
async function lookAheadOfDeletes(d: ScheduleDeps, info: CampaignInfo, contacts: number): Promise<void> {
  const startAt = Date.parse(info.scheduledAt);
  if (!Number.isFinite(startAt)) return;
  const at = lateLookAt(await startLessDeletes(d, startAt, contacts), d.settleMs ?? 0, d.startLeadMs);
  const look = await d.queues.followUps.getJob(lateLookJobId(info.id));
  if (!look || look.timestamp + (look.opts.delay ?? 0) <= at || !(await look.isDelayed())) return;
  // It may have become due meanwhile: then it runs now, as wanted.
  await look.changeDelay(Math.max(0, at - d.now())).catch(() => undefined);
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
  if (result.startedWhileEmptied) logCalledTwice(d, log, check.calledTwice ?? [], STARTED_WHILE_EMPTIED);
  else if (result.calledTwice)
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
  await lookAheadOfDeletes(d, info, result.contactsListed - result.duplicatesRemoved - result.withdrawn);
  const noted = await noteCheckInSummary(def, info, result, { ...d });
  if (noted === "not-yet" && token) return delayJob(job, token, Date.now() + 2_000);
  return { checked: true, ...result };
}
