import type { CampaignIdentity } from "../pipeline/campaign/lifecycle.ts";

/**
 * Every BullMQ job id, built here and nowhere else. Ids are deterministic, so adding the same job
 * twice (a retry, a crash and restart, a second replica) is a no-op.
 */

/** Job ids may not contain ":"; campaign ids and names are made safe for them. */
export const idPart = (text: string) => text.replace(/[^A-Za-z0-9_.-]/g, "_");

/** One import per file content and import generation. */
export const importJobId = (job: string, sha256: string, gen: number) =>
  `import-${idPart(job)}-${sha256.slice(0, 16)}-${gen}`;

/**
 * One campaign per file content, generation, attempt (0, then each follow-up) and callee zone, or
 * under calling rules its plan's label (several may share a zone: Florida's hours and New York's);
 * a campaign calling the contacts another's window close took out names that one; a pool's
 * campaigns by dialer and budget period.
 */
export const campaignJobId = (r: CampaignIdentity) => {
  const zone = r.slot ? `-plan-${idPart(r.slot)}` : r.zone ? `-${idPart(r.zone)}` : "";
  const dialer = r.dialer ? `-dialer-${idPart(r.dialer)}${r.budgetFrom ? `-from-${r.budgetFrom}` : ""}` : "";
  const group = `${zone}${r.variant ? `-variant-${idPart(r.variant)}` : ""}${dialer}`;
  const resume = r.resumeOf ? `-resume-${idPart(r.resumeOf)}` : "";
  const repair = r.repair ? `-repair-${r.repair}` : "";
  return `campaign-${idPart(r.job)}-${r.sha256.slice(0, 16)}-${r.gen}-${r.attempt}${group}${resume}${repair}`;
};

/**
 * One poll per campaign at a time: a tick finding the last poll still waiting adds none (poll
 * jobs go when done; the due schedule, not the id, keeps replicas' ticks apart).
 */
export const pollJobId = (campaignId: string) => `poll-${idPart(campaignId)}`;

/** One follow-up per finished campaign. */
export const followUpJobId = (campaignId: string) => `follow-up-${idPart(campaignId)}`;
/** The hand-back of a campaign stopped when its window closed (one per campaign). */
export const resumeJobId = (campaignId: string) => `resume-${idPart(campaignId)}`;

/** The check before a campaign's start (pipeline/campaign/start-check.ts): one per campaign. */
export const startCheckJobId = (campaignId: string) => `start-check-${idPart(campaignId)}`;
/** The look for late copies right before a campaign's start (pipeline/campaign/late-copies.ts): one per campaign. */
export const lateLookJobId = (campaignId: string) => `late-look-${idPart(campaignId)}`;

/** One delivery per sink and idempotency key. */
export const deliveryJobId = (sink: string, idempotencyKey: string) =>
  `deliver-${idPart(sink)}-${idempotencyKey}`;
