import { type ConnectionOptions, Queue } from "bullmq";
import type { Payload } from "../sinks/delivery.ts";
import { createImportQueue, type ImportJobData } from "./import-queue.ts";

export const CAMPAIGN_QUEUE = "vcw-campaign";
export const POLL_QUEUE = "vcw-poll";
export const FOLLOW_UP_QUEUE = "vcw-follow-up";
export const DELIVERY_QUEUE = "vcw-delivery";

/** Create the campaign of an imported file (or of a follow-up segment). */
export interface CampaignJobData {
  job: string;
  /** File content hash and its import generation: with `attempt`, the campaign's identity. */
  sha256: string;
  gen: number;
  original: string;
  segmentId: string;
  /** 0 for the file's own campaign, n for its n-th follow-up. */
  attempt: number;
  parentId?: string;
  /** Earliest start (epoch ms): follow-up spacing. */
  notBefore?: number;
}

export interface PollJobData {
  job: string;
  campaignId: string;
}

export interface FollowUpJobData {
  job: string;
  campaignId: string;
}

export interface DeliveryJobData {
  sink: string;
  idempotencyKey: string;
  payload: Payload;
}

export interface QueueOptions {
  connection: ConnectionOptions;
  prefix: string;
  importAttempts?: number;
  importBackoffMs?: number;
  deliveryAttempts?: number;
  deliveryBackoffMs?: number;
}

/** Retried with exponential backoff; kept a week when done, and in the failed set until retried. */
const retried = (attempts: number, delayMs: number) => ({
  attempts,
  backoff: { type: "exponential", delay: delayMs },
  removeOnComplete: { age: 7 * 86_400 },
  removeOnFail: false,
});

/** The daemon's queues. Jobs keep deterministic ids, so adding one twice is a no-op. */
export function createQueues(o: QueueOptions) {
  const base = { connection: o.connection, prefix: o.prefix };
  return {
    imports: createImportQueue({
      ...base,
      ...(o.importAttempts ? { attempts: o.importAttempts } : {}),
      ...(o.importBackoffMs ? { backoffMs: o.importBackoffMs } : {}),
    }) as Queue<ImportJobData>,
    campaigns: new Queue<CampaignJobData>(CAMPAIGN_QUEUE, {
      ...base,
      defaultJobOptions: retried(8, 2_000),
    }),
    polls: new Queue<PollJobData>(POLL_QUEUE, {
      ...base,
      // Completed polls are kept an hour: a late replica's tick finds the id and adds nothing.
      defaultJobOptions: { attempts: 2, removeOnComplete: { age: 3_600 }, removeOnFail: { age: 86_400 } },
    }),
    followUps: new Queue<FollowUpJobData>(FOLLOW_UP_QUEUE, {
      ...base,
      defaultJobOptions: retried(8, 2_000),
    }),
    deliveries: new Queue<DeliveryJobData>(DELIVERY_QUEUE, {
      ...base,
      defaultJobOptions: retried(o.deliveryAttempts ?? 12, o.deliveryBackoffMs ?? 2_000),
    }),
  };
}

export type Queues = ReturnType<typeof createQueues>;

export async function closeQueues(q: Queues): Promise<void> {
  await Promise.all(Object.values(q).map((queue) => queue.close()));
}

/** Job ids may not contain ":"; campaign ids and names are made safe for them. */
export const idPart = (text: string) => text.replace(/[^A-Za-z0-9_.-]/g, "_");
