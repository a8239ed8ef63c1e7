import { experimentId } from "../../config/variant-definition.ts";
import { type PreflightRecord, readPreflights } from "../../pipeline/resources/preflight.ts";
import {
  type CampaignCount,
  type CampaignView,
  campaignCounts,
  latestCampaigns,
  type PendingCampaign,
  pendingCampaigns,
} from "./campaign-views.ts";
import { type CampaignNotMade, campaignsNotMade } from "./campaigns-not-made.ts";
import {
  type FailedDelivery,
  failedDeliveries,
  type RetryingDelivery,
  retryingDeliveries,
} from "./deliveries.ts";
import { type FileInFlight, filesInFlight, type RecentFile, recentFiles } from "./import-files.ts";
import { type JobView, jobView } from "./job-views.ts";
import { keptCampaigns } from "./kept-campaigns.ts";
import { type PoolNumberView, poolNumberViews } from "./pool-numbers.ts";
import { type QueueView, readQueues } from "./queue-views.ts";
import { sharedRate } from "./shared-rate.ts";
import { LISTED, type ReadModelSources } from "./sources.ts";
import { type UnpolledJob, unpolledJobs } from "./unpolled-jobs.ts";
import { type WhatsNext, whatsNext } from "./whats-next.ts";

/**
 * What is running, read from the stores, BullMQ and the job folders: the one read model of the
 * dashboard, /metrics and (in part) `vcw status`. Phones are in it as stored; pages mask them.
 */
export interface Running {
  /** The request rate shared by all workers (req/s), once the limiter has one. */
  rate: number | null;
  queues: QueueView[];
  jobs: JobView[];
  inFlight: FileInFlight[];
  recentFiles: RecentFile[];
  campaigns: CampaignView[];
  /** Campaigns asked for and never made (failed for good, or refused as too late), with why: their contacts are not called. */
  campaignsNotMade: CampaignNotMade[];
  /** Every kept campaign, by job and state (the dashboard lists only the latest). */
  campaignCounts: CampaignCount[];
  failedDeliveries: FailedDelivery[];
  /** Deliveries whose last attempt failed and that wait for their next: trouble, although not failed yet. */
  retryingDeliveries: RetryingDelivery[];
  /** Campaigns asked for and not yet created: these can still be canceled. */
  pendingCampaigns: PendingCampaign[];
  /** Each job's last test call (`preflight`), numbers masked. */
  preflights: PreflightRecord[];
  /** What comes next: the soonest waiting start, each job's next report. */
  next: WhatsNext;
  /** Each pool number's calls today and this hour, its budgets and its rest (`campaign.dialers`). */
  numbers: PoolNumberView[];
  /** Jobs whose active campaigns no running daemon polls, and why (unpolled-jobs.ts). */
  unpolledJobs: UnpolledJob[];
}

/** Reads what is running once. Throws when Redis is not connected (the caller keeps the last read). */
export async function readRunning(src: ReadModelSources): Promise<Running> {
  if (src.redis.status !== "ready") throw new Error(`Redis is ${src.redis.status}`);
  const defs = [...src.jobs().values()];
  const queues = await readQueues(src.queues);
  const rate = await sharedRate(src);
  const kept = await keptCampaigns(src).get();
  const watched = src.watched();
  const notMade = await campaignsNotMade(src.queues, LISTED.campaignsNotMade);
  return {
    rate,
    queues,
    jobs: await Promise.all(
      defs.map(async (def) =>
        jobView(def, {
          inboxes: src.inboxes,
          watched,
          paused: await src.controls.isPaused(def.name),
          store: src.store,
          ...(def.campaign?.variants
            ? { decisions: await src.experiments.decisions(experimentId(def.name, def.campaign.experiment)) }
            : {}),
        }),
      ),
    ),
    inFlight: await filesInFlight(src.queues, LISTED.inFlight),
    recentFiles: withNotMade(
      await recentFiles(src.queues, src.jobs(), src.inboxes, LISTED.recentFiles),
      notMade,
    ),
    campaigns: await latestCampaigns(kept, { n: LISTED.campaigns, store: src.store, jobs: src.jobs() }),
    campaignsNotMade: notMade,
    campaignCounts: campaignCounts(kept),
    failedDeliveries: await failedDeliveries(src.queues, LISTED.failedDeliveries),
    retryingDeliveries: await retryingDeliveries(src.queues, LISTED.failedDeliveries),
    pendingCampaigns: (await pendingCampaigns(src.queues, { n: LISTED.pendingCampaigns })).map(
      ({ zone: _, ...c }) => c,
    ),
    preflights: await readPreflights(src.resources),
    next: whatsNext(kept, src.jobs(), Date.now()),
    numbers: src.numbers ? await poolNumberViews(defs, src.numbers, Date.now()) : [],
    unpolledJobs: await unpolledJobs(src.store, await src.presence.list()),
  };
}

/** Each file with how many of its campaigns were not made: a file whose campaigns failed is no plain success. */
function withNotMade(files: RecentFile[], notMade: readonly CampaignNotMade[]): RecentFile[] {
  return files.map((f) => ({
    ...f,
    campaignsNotMade: notMade.filter((c) => c.job === f.job && c.sha256 === f.sha256 && c.gen === f.gen)
      .length,
  }));
}
