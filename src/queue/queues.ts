import { type ConnectionOptions, Queue } from "bullmq";
import type { AdmittedFile } from "../inbox/admit-file.ts";
import type { RedisKeys } from "../lib/redis-keys.ts";
import type { CampaignRequest } from "../pipeline/campaign/lifecycle.ts";
import type { Payload } from "../pipeline/reports/model.ts";
import { queueTelemetry } from "../telemetry/queue-telemetry.ts";
import { CAPPED_EXPONENTIAL } from "./backoff.ts";

/** Queue names; each queue's keys carry its own hash tag (redis-keys.ts), so queues spread over a Cluster. */
export const QUEUE_NAMES = {
  imports: "vcw-import",
  campaigns: "vcw-campaign",
  polls: "vcw-poll",
  followUps: "vcw-follow-up",
  deliveries: "vcw-delivery",
} as const;

export type QueueKind = keyof typeof QUEUE_NAMES;

/** An import job: one admitted file and its import generation (see the file registry). */
export interface ImportJobData extends AdmittedFile {
  gen: number;
}

export type CampaignJobData = CampaignRequest;

export interface PollJobData {
  job: string;
  campaignId: string;
  /** The tick (epoch ms) that enqueued it, and the gap to the next: the next poll's time counts from them. */
  tick: number;
  periodMs: number;
}

/**
 * The jobs of the follow-ups queue, told apart by their BullMQ name: a follow-up campaign's contacts,
 * the hand-back of contacts a window close took out (pipeline/campaign/stopping/poll-stops.ts), the check
 * before a campaign's start (start-check.ts) and the look for late copies right before it (late-look.ts).
 */
export const FOLLOW_UP_JOBS = ["follow-up", "resume", "start-check", "late-look"] as const;
export type FollowUpJobKind = (typeof FOLLOW_UP_JOBS)[number];

export interface FollowUpJobData {
  job: string;
  campaignId: string;
  /** Written by the version before job names (one release): a hand-back. */
  resume?: boolean;
  /** Written by the version before job names (one release): a start check. */
  check?: boolean;
}

/** A follow-ups job's kind: its name; a job queued with the older flags is read by them. */
export function followUpJobKind(job: { name: string; data: FollowUpJobData }): FollowUpJobKind {
  const named = FOLLOW_UP_JOBS.find((kind) => kind === job.name);
  if (named) return named;
  return job.data.resume ? "resume" : job.data.check ? "start-check" : "follow-up";
}

export interface DeliveryJobData {
  sink: string;
  idempotencyKey: string;
  payload: Payload;
}

export interface QueueOptions {
  connection: ConnectionOptions;
  keys: RedisKeys;
  /** Attempts per file before it is rejected, and the first retry delay (doubling). */
  importAttempts?: number;
  importBackoffMs?: number;
  deliveryAttempts?: number;
  deliveryBackoffMs?: number;
  /** Finished jobs are kept this long (completed ones a week at most): then BullMQ removes them. */
  retentionMs?: number;
}

/** The prefix BullMQ gets for a queue: from the one key layout. */
export const queuePrefix = (keys: RedisKeys, kind: QueueKind) => keys.queue(QUEUE_NAMES[kind]);

/** The daemon's queues. Jobs keep deterministic ids (job-ids.ts), so adding one twice is a no-op. */
export function createQueues(o: QueueOptions) {
  const keptSec = Math.ceil((o.retentionMs ?? 30 * 86_400_000) / 1000);
  /** Retried with exponential backoff; kept a week (at most) when done, and the retention when failed. */
  const retried = (attempts: number, delayMs: number) => ({
    attempts,
    backoff: { type: "exponential", delay: delayMs },
    removeOnComplete: { age: Math.min(7 * 86_400, keptSec) },
    removeOnFail: { age: keptSec },
  });
  const queue = <D>(kind: QueueKind, defaultJobOptions: object) =>
    new Queue<D>(QUEUE_NAMES[kind], {
      connection: o.connection,
      prefix: queuePrefix(o.keys, kind),
      defaultJobOptions,
      ...queueTelemetry(),
    });
  return {
    imports: queue<ImportJobData>("imports", {
      ...retried(o.importAttempts ?? 5, o.importBackoffMs ?? 5_000),
      removeOnComplete: { count: 1_000 },
    }),
    campaigns: queue<CampaignJobData>("campaigns", retried(8, 2_000)),
    // A poll's id is its campaign's, so a finished poll goes at once (a kept one would block the
    // next); replicas are kept apart by the due schedule. A failed poll is retried by the schedule.
    polls: queue<PollJobData>("polls", {
      attempts: 2,
      removeOnComplete: true,
      removeOnFail: true,
    }),
    followUps: queue<FollowUpJobData>("followUps", retried(8, 2_000)),
    // Doubling up to the workers' cap (backoff.ts): a receiver down for hours still gets its summaries.
    deliveries: queue<DeliveryJobData>("deliveries", {
      ...retried(o.deliveryAttempts ?? 20, 0),
      backoff: { type: CAPPED_EXPONENTIAL, delay: o.deliveryBackoffMs ?? 2_000 },
    }),
  };
}

export type Queues = ReturnType<typeof createQueues>;

export async function closeQueues(q: Queues): Promise<void> {
  await Promise.all(Object.values(q).map((queue) => queue.close()));
}
