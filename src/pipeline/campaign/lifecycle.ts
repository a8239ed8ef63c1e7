import type { JobDefinition } from "../../config/job-definition.ts";
import type { HoursConstraint } from "../calling/calling-hours.ts";
import type { CampaignInfo, CampaignSummary, StartCheckResult } from "../model/results.ts";
import type { PollOutcome } from "../results/poll-campaign.ts";

/**
 * The campaign lifecycle, decided in one place: what follows a poll, a finished campaign (what
 * follows an import is `audience.ts`: it needs I/O). Pure: it returns intents, and the queue layer turns each into a job with a
 * deterministic id, so acting on the same intent twice is a no-op.
 */

/** A campaign to create: for an imported file (attempt 0) or its n-th follow-up. */
export interface CampaignRequest {
  job: string;
  /** File content hash and its import generation: with `attempt`, the campaign's identity. */
  sha256: string;
  gen: number;
  original: string;
  segmentId: string;
  /** 0 for the file's own campaign, n for its n-th follow-up. */
  attempt: number;
  /** Its unique name, decided once (the service finds it by this name). */
  name: string;
  /** The zone of its contacts when the window is in the callee's zone. */
  zone?: string;
  parentId?: string;
  /** Earliest start (epoch ms): follow-up spacing. */
  notBefore?: number;
  /** Under calling rules: the campaign's label within its file (its identity, with the file). */
  slot?: string;
  region?: string;
  /** Under calling rules: its plan (pipeline/calling/planned-start.ts decides the start at creation). */
  scheduledAt?: number;
  callUntil?: number;
  expectedEndAt?: number;
  hours?: readonly HoursConstraint[];
  callBy?: number;
  /** The campaign whose contacts, taken out when its window closed, this one calls (stopping/stop-hand-back.ts). */
  resumeOf?: string;
  /** The n-th fresh campaign made when the check before the start found its name twice (start-check.ts). */
  repair?: number;
  /** Its experiment variant (`campaign.variants`): its contacts' and its assistant's. */
  variant?: string;
  /** Its pool dialer (`campaign.dialers`) and that dialer's number; absent: the job's one dialer. */
  dialer?: string;
  dialerNumber?: string;
  /** The budget period its number was granted in, when later than planned: no start before it. */
  budgetFrom?: number;
  /** Its contacts when it was asked for (a file's own campaigns): what a failed create leaves uncalled. */
  contacts?: number;
}

export type Intent =
  | { kind: "create-campaign"; request: CampaignRequest }
  | { kind: "send-summary"; campaignId: string; summary: CampaignSummary["kind"]; sinks: readonly string[] }
  | { kind: "follow-up"; job: string; campaignId: string }
  /** The contacts a window close took out of a finished campaign, handed back (stopping/poll-stops.ts). */
  | { kind: "hand-back"; job: string; campaignId: string };

/** What makes a campaign itself: its file, attempt, group (zone or plan label, variant, pool dialer), hand-back, repair. */
export type CampaignIdentity = Pick<
  CampaignRequest,
  | "job"
  | "sha256"
  | "gen"
  | "attempt"
  | "zone"
  | "slot"
  | "resumeOf"
  | "repair"
  | "variant"
  | "dialer"
  | "budgetFrom"
>;

/** The identity of a campaign across retries, crashes and workers (its create-once memo). */
export const campaignKey = (r: CampaignIdentity) =>
  `${r.job}:${r.sha256}:${r.gen}:${r.attempt}${r.slot ? `:${r.slot}` : r.zone ? `:${r.zone}` : ""}${r.variant ? `:variant:${r.variant}` : ""}${r.dialer ? `:dialer:${r.dialer}${r.budgetFrom ? `@${r.budgetFrom}` : ""}` : ""}${r.resumeOf ? `:resume:${r.resumeOf}` : ""}${r.repair ? `:repair:${r.repair}` : ""}`;

/** After a poll: on the campaign's end, its final (or stuck) summary, and a follow-up if one is due. */
export function afterPoll(
  def: JobDefinition,
  info: CampaignInfo,
  outcome: PollOutcome,
  check?: Pick<StartCheckResult, "startedWhileEmptied">,
): Intent[] {
  if (!outcome.ended) return [];
  const intents: Intent[] = [
    {
      kind: "send-summary",
      campaignId: info.id,
      summary: outcome.state === "finished" ? "final" : "stuck",
      sinks: def.summaries.sinks,
    },
  ];
  // A copy that started while emptied for a late one: the late copy had all its people and follows them up.
  if (check?.startedWhileEmptied) return intents;
  if (outcome.state === "finished" && def.followUps && info.attempt < def.followUps.attempts)
    intents.push({ kind: "follow-up", job: def.name, campaignId: info.id });
  return intents;
}

/** The follow-up campaign of `parent`, once its "try again" contacts are in `segmentId`. */
export function followUpCampaign(
  def: JobDefinition,
  parent: CampaignInfo,
  segmentId: string,
  parentEndedAt: number,
): Extract<Intent, { kind: "create-campaign" }> {
  return {
    kind: "create-campaign",
    request: {
      job: parent.job,
      sha256: parent.sha256,
      gen: parent.gen,
      original: parent.file,
      segmentId,
      attempt: parent.attempt + 1,
      name: `${parent.name.replace(/ follow-up \d+$/, "")} follow-up ${parent.attempt + 1}`,
      ...(parent.zone ? { zone: parent.zone } : {}),
      ...(parent.variant ? { variant: parent.variant } : {}),
      ...dialerOf(parent),
      ...plannedOf(parent),
      parentId: parent.id,
      notBefore: parentEndedAt + (def.followUps?.spacingMinutes ?? 0) * 60_000,
    },
  };
}

/** A pool campaign's dialer, kept by its follow-ups and hand-backs (its budget period too, in their identity). */
export function dialerOf(
  parent: Pick<CampaignInfo, "dialer" | "dialerNumber" | "budgetFrom">,
): Pick<CampaignRequest, "dialer" | "dialerNumber" | "budgetFrom"> {
  return {
    ...(parent.dialer ? { dialer: parent.dialer } : {}),
    ...(parent.dialerNumber ? { dialerNumber: parent.dialerNumber } : {}),
    ...(parent.budgetFrom !== undefined ? { budgetFrom: parent.budgetFrom } : {}),
  };
}

/** What a follow-up keeps of a planned parent: its label, region, window and callBy (not its times). */
function plannedOf(parent: CampaignInfo): Partial<CampaignRequest> {
  return {
    ...(parent.slot ? { slot: parent.slot } : {}),
    ...(parent.region ? { region: parent.region } : {}),
    ...(parent.hours ? { hours: parent.hours as readonly HoursConstraint[] } : {}),
    ...(parent.callBy !== undefined ? { callBy: parent.callBy } : {}),
  };
}
