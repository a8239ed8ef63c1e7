import type { CampaignRequestRef } from "../pipeline/campaign/cancel-campaign.ts";
import type { Queues } from "./queues.ts";

const EVERY_STATE = ["waiting", "delayed", "prioritized", "active", "completed", "failed"] as const;

/** The campaign requests of a campaign job id, or of every campaign of a file (its name as dropped). */
export async function campaignRequestsMatching(queues: Queues, what: string): Promise<CampaignRequestRef[]> {
  const jobs = await queues.campaigns.getJobs([...EVERY_STATE]);
  const seen = new Set<string>();
  return jobs
    .filter((j) => j?.id && (j.id === what || j.data.original === what))
    .filter((j) => !seen.has(j.id!) && seen.add(j.id!))
    .map((j) => ({ id: j.id!, data: j.data, remove: () => j.remove() }));
}
