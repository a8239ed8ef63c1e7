import type { Controls } from "../../pipeline/campaign/controls.ts";
import { campaignKey } from "../../pipeline/campaign/lifecycle.ts";
import type { Queues } from "../queues.ts";

/** The service has no operation to stop a campaign once it exists (docs/spec-gaps.md). */
export const NO_STOP =
  "the service has no operation to pause or stop a campaign once it exists: its calls go on as scheduled";

export type CancelOutcome =
  | { kind: "canceled"; names: string[] }
  | { kind: "already-created" }
  | { kind: "not-found" };

/**
 * Cancels the campaigns not yet created that `what` names (a campaign job id, or the file name as
 * dropped): marked canceled (a worker that picked one up meanwhile stops on the mark) and removed.
 */
export async function cancelPendingCampaign(
  queues: Queues,
  controls: Controls,
  what: string,
): Promise<CancelOutcome> {
  const matches = (j: { id?: string | undefined; data: { original: string } }) =>
    j.id === what || j.data.original === what;
  const pending = (await queues.campaigns.getJobs(["waiting", "delayed", "prioritized"])).filter(
    (j) => j && matches(j),
  );
  if (pending.length === 0) {
    const made = (await queues.campaigns.getJobs(["completed", "active"])).filter((j) => j && matches(j));
    return { kind: made.length > 0 ? "already-created" : "not-found" };
  }
  const names: string[] = [];
  for (const job of pending) {
    await controls.cancel(campaignKey(job.data));
    await job.remove().catch(() => undefined); // picked up meanwhile: the mark stops it
    names.push(`${job.data.name ?? job.name} (${job.id})`);
  }
  return { kind: "canceled", names };
}
