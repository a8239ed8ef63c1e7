import type { Job } from "bullmq";
import { z } from "zod";
import type { ImportProgress, ImportSummary } from "../pipeline/files/import-outcome.ts";
import type { PollOutcome } from "../pipeline/results/poll-campaign.ts";

// An import's summary and progress are the dropped-file use case's (pipeline/files/import-outcome.ts).
export type { ImportProgress, ImportSummary };

/**
 * A campaign job's return value: the campaign (created now, or found from an earlier attempt),
 * canceled, or not made because no opening was left for it (why, in words).
 */
export type CampaignResult = { id: string; created: boolean } | { canceled: true } | { tooLate: string };

/** A follow-up job's return value: the contacts filed for the follow-up campaign, and their segment. */
export interface FollowUpResult {
  contacts: number;
  created?: number;
  segmentId?: string;
}

/** Each queue's job return value, by queue (a delivery returns nothing). */
export interface JobResults {
  imports: ImportSummary;
  campaigns: CampaignResult;
  polls: PollOutcome;
  followUps: FollowUpResult;
  deliveries: undefined;
}

/** Each queue's job progress, by queue (only imports report one). */
export interface JobProgress {
  imports: ImportProgress;
}

// The readers validate at the edge: a job written by an older (or newer) version, or a progress saved
// mid-pause, may lack fields; a reader keeps what it can trust and drops the rest.
const count = z.number().finite();
const rows = z.object({ total: count, valid: count, rejected: count, duplicates: count, skipped: count });

const importProgressSchema = z.object({
  cursor: count.optional(),
  rowsRead: count.optional(),
  created: count.optional(),
  known: count.optional(),
  elsewhere: count.optional(),
  failed: count.optional(),
  reconciles: count.optional(),
  phase: z.enum(["importing", "paused"]).optional(),
  segmentId: z.string().optional(),
  validated: rows.optional(),
});

/** An import's progress as read back: any field may be missing (not started, paused before its first row). */
export type ImportProgressRead = z.infer<typeof importProgressSchema>;
// A full progress is a readable one: the compiler keeps each schema in step with its type.
type Fits<A extends B, B> = A;
export type ImportProgressFits = Fits<ImportProgress, ImportProgressRead>;

const importResultSchema = z.object({
  status: z.enum(["imported", "rejected"]).optional(),
  totals: rows.optional(),
  created: count.optional(),
  known: count.optional(),
  elsewhere: count.optional(),
  failed: count.optional(),
  errorsFile: z.string().optional(),
  changedWhileImporting: count.optional(),
  warning: z.string().optional(),
  reason: z.string().optional(),
  segment: z.object({ id: z.string(), name: z.string().optional() }).optional(),
});

/** What the read side shows of an import's return value (the summary's figures; every field optional). */
export type ImportResultRead = z.infer<typeof importResultSchema>;

const campaignResultSchema = z.union([
  z.object({ id: z.string(), created: z.boolean() }),
  z.object({ canceled: z.literal(true) }),
  z.object({ tooLate: z.string() }),
]);
export type CampaignResultFits = Fits<CampaignResult, z.infer<typeof campaignResultSchema>>;

const followUpResultSchema = z.object({
  contacts: count,
  created: count.optional(),
  segmentId: z.string().optional(),
});
export type FollowUpResultFits = Fits<FollowUpResult, z.infer<typeof followUpResultSchema>>;

/** Parses `value` against `schema`, undefined when it does not fit. */
function readAs<T>(schema: z.ZodType<T>, value: unknown): T | undefined {
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** An import job's progress, or undefined when it has none yet (BullMQ starts it at 0). */
export const importProgressOf = (job: Pick<Job, "progress">): ImportProgressRead | undefined =>
  readAs(importProgressSchema, job.progress);

/** A finished import job's summary, or undefined when it has none (a failed job returns nothing). */
export const importResultOf = (job: Pick<Job, "returnvalue">): ImportResultRead | undefined =>
  readAs(importResultSchema, job.returnvalue);

/** A finished campaign job's result, or undefined. */
export const campaignResultOf = (job: Pick<Job, "returnvalue">): CampaignResult | undefined =>
  readAs(campaignResultSchema, job.returnvalue);

/** A finished follow-up job's result, or undefined. */
export const followUpResultOf = (job: Pick<Job, "returnvalue">): FollowUpResult | undefined =>
  readAs(followUpResultSchema, job.returnvalue);
