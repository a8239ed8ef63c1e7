import { DelayedError, type Job } from "bullmq";
import { campaignName, createCampaignOnce, scheduledAtFor } from "../pipeline/campaign/create-campaign.ts";
import { campaignKey } from "../pipeline/campaign/lifecycle.ts";
import { campaignRecords } from "../pipeline/resources/campaign-records.ts";
import type { CampaignInfo } from "../pipeline/results/model.ts";
import { failFastOnPermanent } from "./failures.ts";
import type { CampaignJobData } from "./queues.ts";
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
): Promise<{ id: string; created: boolean } | { canceled: true }> {
  const data = job.data;
  const def = jobOf(d, data.job);
  if (await d.controls.isCanceled(campaignKey(data))) {
    d.logger.info({ job: data.job, name: data.name }, "campaign canceled before it was created");
    return { canceled: true };
  }
  if (token && (await d.controls.isPaused(data.job))) {
    // No campaign while the job is paused: look again later (not a failed attempt).
    await job.moveToDelayed(Date.now() + (d.pausedRetryMs ?? 5_000), token);
    throw new DelayedError();
  }
  if (!def.campaign) throw new Error(`job ${data.job} has no campaign section`);
  const c = def.campaign;
  const now = d.now();
  // Requests queued by an earlier version carry no name: it is made as it was then.
  const name =
    data.name ??
    campaignName(c.name, {
      job: data.job,
      file: data.original,
      sha256: data.sha256,
      now: job.timestamp,
      attempt: data.attempt,
    });
  const scheduledAt = scheduledAtFor(c.start, now, data.notBefore ?? now, data.zone);
  const using = await campaignRecords(d, def, campaignKey(data), now);
  const result = await createCampaignOnce(
    d.client,
    d.redis,
    d.keys,
    campaignKey(data),
    {
      campaigns_name: name,
      assistant_id: using.assistantId,
      contacts_id: data.segmentId,
      dialer_id: using.dialerId,
      scheduled_at: scheduledAt,
      is_automation: c.isAutomation,
    },
    // The lock outlives any create still in flight from a worker that died holding it.
    { lockMs: d.leaseMs },
  );
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
    followUps: [],
  };
  await d.store.register(info, now);
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
