/**
 * Audience `status` values are not shown by the spec (docs/spec-gaps.md). These are the ones the
 * simulator uses and the worker's default configuration; a service with other values is handled by
 * configuring the worker, not by changing code.
 */
export const AUDIENCE_STATUSES = {
  /** Not final yet: the call is waiting, ringing or going on. */
  pending: ["queued", "ringing", "in-progress"],
  /** Final, the call happened. */
  done: ["completed"],
  /** Final for this campaign, worth calling again later. */
  retry: ["no-answer", "busy", "voicemail", "failed"],
  /** Final, the callee asked not to be called again. */
  optedOut: ["opted-out"],
} as const;

export type AudienceStatus =
  | (typeof AUDIENCE_STATUSES.pending)[number]
  | (typeof AUDIENCE_STATUSES.done)[number]
  | (typeof AUDIENCE_STATUSES.retry)[number]
  | (typeof AUDIENCE_STATUSES.optedOut)[number];
