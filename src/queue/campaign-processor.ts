import type { Job } from "bullmq";
import type { FailpointName } from "../lib/failpoint.ts";
import { plannedStart } from "../pipeline/calling/planned-start.ts";
import {
  type CampaignCreateOptions,
  campaignCreateKeys,
  createCampaignOnce,
  scheduledAtFor,
} from "../pipeline/campaign/create-campaign.ts";
import { type CampaignRequest, campaignKey } from "../pipeline/campaign/lifecycle.ts";
import { plannedInfo } from "../pipeline/campaign/planned-info.ts";
import { createState, lookAgainAfterMs } from "../pipeline/create-once.ts";
import { CreateCanceledError, CreateUnresolvedError } from "../pipeline/errors.ts";
import { campaignRecords } from "../pipeline/resources/campaign-records.ts";
import type { CampaignInfo } from "../pipeline/results/model.ts";
import { rememberCampaignTrace } from "../telemetry/campaign-trace.ts";
import { delayJob } from "./delay-job.ts";
import { failFastOnPermanent } from "./failures.ts";
import type { CampaignJobData } from "./queues.ts";
import { scheduleStartCheck } from "./start-check.ts";
import { jobOf, type WorkDeps } from "./work-deps.ts";

/** Creates the campaign of an imported file (or a follow-up) exactly once, and registers it for polling. */
export function createCampaignProcessor(d: WorkDeps) {
  return (job: Job<CampaignJobData>, token?: string) =>
    failFastOnPermanent(() => processCampaign(d, job, token));
}

async function processCampaign(
  d: WorkDeps,
  job: Job<CampaignJobData>,
  token?: string,
): Promise<{ id: string; created: boolean } | { canceled: true } | { tooLate: string }> {
  const data = job.data;
  const def = jobOf(d, data.job);
  const key = campaignKey(data);
  const canceled = () => d.controls.isCanceled(key);
  // Canceled with no create ever sent: nothing to look up. One sent is looked up all the same.
  if ((await canceled()) && (await createState(d.redis, campaignCreateKeys(d.keys, key))).kind === "none")
    return canceledNow(d, data);
  // No campaign while the job is paused: look again later (not a failed attempt).
  if (token && (await d.controls.isPaused(data.job)))
    return delayJob(job, token, Date.now() + (d.pausedRetryMs ?? 5_000));
  if (!def.campaign) throw new Error(`job ${data.job} has no campaign section`);
  const c = def.campaign;
  const now = d.now();
  const name = data.name;
  // No start sooner than the settle time after the create: a late copy is found before anyone is called.
  const notBefore = Math.max(now + (d.settleMs ?? 0), data.notBefore ?? now);
  const planned = plannedStart(data, notBefore, marginMsOf(def));
  if (planned?.kind === "too-late") return tooLate(d, data, planned.reason);
  const scheduledAt = planned
    ? new Date(planned.scheduledAt).toISOString()
    : scheduledAtFor(c.start, now, notBefore, data.zone);
  const using = await campaignRecords(d, def, key, now, data.variant);
  const result = await createOrLookUp(d, job, token, {
    campaigns_name: name,
    assistant_id: using.assistantId,
    contacts_id: data.segmentId,
    dialer_id: using.dialerId,
    scheduled_at: scheduledAt,
    is_automation: c.isAutomation,
  });
  if ("canceled" in result) return result;
  const info: CampaignInfo = {
    id: result.id,
    name,
    job: data.job,
    file: data.original,
    sha256: data.sha256,
    gen: data.gen,
    segmentId: data.segmentId,
    scheduledAt,
    state: "active",
    attempt: data.attempt,
    ...(data.zone ? { zone: data.zone } : {}),
    ...(data.variant ? { variant: data.variant } : {}),
    followUps: [],
    ...plannedInfo(data, planned),
  };
  await d.store.register(info, now);
  await scheduleStartCheck(d, info);
  await rememberCampaignTrace(d.redis, d.keys, result.id, d.retentionMs);
  if (data.parentId) {
    const parent = await d.store.get(data.parentId);
    if (parent) await d.store.addFollowUp(data.parentId, parent.info, result.id);
  }
  d.logger.info(
    { job: data.job, campaign: result.id, name, scheduledAt, created: result.created },
    "campaign ready",
  );
  return result;
}

/**
 * The campaign created once, or found; canceled if it never was. A create whose answer is unknown
 * is looked up again later (the job delayed, not a failed attempt) until the service lists it or
 * it is certainly not applied: such a campaign is never forgotten.
 */
async function createOrLookUp(
  d: WorkDeps,
  job: Job<CampaignJobData>,
  token: string | undefined,
  body: Parameters<typeof createCampaignOnce>[4],
): Promise<{ id: string; created: boolean } | { canceled: true }> {
  const key = campaignKey(job.data);
  const o: CampaignCreateOptions = {
    // The lock outlives any create still in flight from a worker that died holding it.
    lockMs: d.leaseMs,
    mayCreate: async () => !(await d.controls.isCanceled(key)),
    // A retry may follow a create sent by a version that marked nothing: look before sending again.
    lookFirst: job.attemptsMade > 0 || (job.attemptsStarted ?? 0) > 1,
    point: createPointOf(job.data),
    // Re-send an unanswered create only once the first can no longer land (VCW_SETTLE_MS).
    ...(d.settleMs === undefined ? {} : { settleMs: d.settleMs }),
  };
  try {
    return await createCampaignOnce(d.client, d.redis, d.keys, key, body, o);
  } catch (error) {
    if (error instanceof CreateCanceledError) return canceledNow(d, job.data);
    if (!(error instanceof CreateUnresolvedError) || !token) throw error;
    const waitMs = lookAgainAfterMs(error.sentAt, Date.now());
    d.logger.warn(
      { job: job.data.job, name: body.campaigns_name, lookAgainInMs: waitMs, err: String(error.cause ?? "") },
      error.message,
    );
    return delayJob(job, token, Date.now() + waitMs);
  }
}

function canceledNow(d: WorkDeps, data: CampaignJobData): { canceled: true } {
  d.logger.info({ job: data.job, name: data.name }, "campaign canceled before it was created");
  return { canceled: true };
}

/** The fault point before its create (lib/failpoint.ts): a file's campaign, a follow-up, a hand-back. */
const createPointOf = (r: CampaignJobData): FailpointName =>
  r.resumeOf
    ? "hand-back.before-create"
    : r.attempt > 0
      ? "follow-up.before-create"
      : "campaign.before-create";

const marginMsOf = (def: { calling?: { marginMinutes: number } | undefined }) =>
  (def.calling?.marginMinutes ?? 15) * 60_000;

/** Never called late: a campaign (a follow-up, one created after a long outage) past callBy or any opening. */
function tooLate(d: WorkDeps, data: CampaignRequest, reason: string): { tooLate: string } {
  d.logger.warn({ job: data.job, name: data.name, reason }, "campaign not made: no opening left for it");
  return { tooLate: reason };
}
