import type { Job, JobType } from "bullmq";
import { type FollowUpJobData, followUpJobKind, type QueueKind, type Queues } from "../queues.ts";

export interface QueueView {
  name: QueueKind;
  paused: boolean;
  counts: Record<string, number>;
}

/** A queue's failed job as `vcw status` lists it. */
export interface QueueFailure {
  queue: string;
  id: string | undefined;
  name: string;
  reason: string;
}

export const COUNTED_STATES = [
  "waiting",
  "active",
  "delayed",
  "prioritized",
  "waiting-children",
  "completed",
  "failed",
] as const;

/** The states `vcw status` counts. */
export const STATUS_STATES = ["waiting", "active", "delayed", "completed", "failed"] as const;

/** Every queue: paused or not, and its jobs counted by state. */
export function readQueues(
  queues: Queues,
  states: readonly JobType[] = COUNTED_STATES,
): Promise<QueueView[]> {
  return Promise.all(
    (Object.keys(queues) as QueueKind[]).map(async (name) => ({
      name,
      paused: await queues[name].isPaused(),
      counts: await queues[name].getJobCounts(...states),
    })),
  );
}

/** The latest failed jobs of each queue named, at most `n` a queue. */
export async function queueFailures(
  queues: Queues,
  names: readonly QueueKind[],
  n = 10,
): Promise<QueueFailure[]> {
  const out: QueueFailure[] = [];
  for (const queue of names)
    for (const j of await queues[queue].getJobs(["failed"], 0, n))
      out.push({ queue, id: j.id, name: nameOf(queue, j), reason: j.failedReason });
  return out;
}

/** A follow-ups job by its kind and campaign (its name is only its kind); others by their name. */
const nameOf = (queue: QueueKind, j: Job) =>
  queue === "followUps" ? `${followUpJobKind(j)} ${(j as Job<FollowUpJobData>).data.campaignId}` : j.name;
