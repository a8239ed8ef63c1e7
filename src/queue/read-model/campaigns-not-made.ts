import type { Job } from "bullmq";
import type { ReportCampaignNotMade } from "../../pipeline/reports/model.ts";
import { campaignResultOf } from "../job-results.ts";
import type { CampaignJobData, Queues } from "../queues.ts";

/**
 * A campaign vcw asked for and never made (issue 40, `ReportCampaignNotMade`): its create failed for
 * good (the service refused it, say an assistant it does not have; or an error outlasted every
 * retry), or vcw refused it (no opening left before its callBy). Its contacts are not called.
 */
export interface CampaignNotMade extends Omit<ReportCampaignNotMade, "at"> {
  /** The campaign job's id: a failed one is retried by it. */
  id: string | undefined;
  /** The file's content and import generation: which file's campaign it was. */
  sha256: string;
  gen: number;
  /** When it failed or was refused (ISO). */
  at: string | null;
}

/** Completed campaign jobs read for refusals: the latest of them (a refusal is rare, a made campaign is not). */
const COMPLETED_READ = 200;

/** The latest campaigns not made, at most `n`, newest first. */
export async function campaignsNotMade(queues: Queues, n: number): Promise<CampaignNotMade[]> {
  const failed = await queues.campaigns.getJobs(["failed"], 0, n - 1);
  const completed = await queues.campaigns.getJobs(["completed"], 0, COMPLETED_READ - 1);
  const refused = completed.flatMap((j) => {
    const result = j ? campaignResultOf(j) : undefined;
    return result && "tooLate" in result ? [notMade(j, "refused", result.tooLate)] : [];
  });
  return [...failed.filter(Boolean).map((j) => notMade(j, "failed", j.failedReason ?? "")), ...refused]
    .sort((a, b) => (b.at ?? "").localeCompare(a.at ?? ""))
    .slice(0, n);
}

/** The campaigns not made since `since` (epoch ms): what a report of that period lists. */
export const campaignsNotMadeSince = (queues: Queues) => async (since: number) =>
  (await campaignsNotMade(queues, 100)).filter((c) => c.at !== null && Date.parse(c.at) >= since);

function notMade(
  j: Job<CampaignJobData>,
  outcome: CampaignNotMade["outcome"],
  reason: string,
): CampaignNotMade {
  const d = j.data;
  return {
    id: j.id,
    job: d.job,
    file: d.original,
    sha256: d.sha256,
    gen: d.gen,
    name: d.name,
    ...(d.zone ? { zone: d.zone } : {}),
    ...(d.variant ? { variant: d.variant } : {}),
    attempt: d.attempt,
    contacts: d.contacts ?? null,
    outcome,
    reason,
    at: j.finishedOn ? new Date(j.finishedOn).toISOString() : null,
  };
}
