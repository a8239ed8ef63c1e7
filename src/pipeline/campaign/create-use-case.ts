import type { Client } from "../../api/client.ts";
import type { JobDefinition } from "../../config/job-definition.ts";
import type { FailpointName } from "../../lib/failpoint.ts";
import { jobWindowOf } from "../calling/plan-settings.ts";
import { plannedStart } from "../calling/planned-start.ts";
import { lookAgainAfterMs } from "../create-once.ts";
import { CreateCanceledError, CreateUnresolvedError } from "../errors.ts";
import type { CampaignInfo } from "../model/results.ts";
import type { CampaignRegistry } from "../stores/campaign-registry.ts";
import type { Controls } from "../stores/controls.ts";
import type { CreateMemo } from "../stores/create-memo.ts";
import { nameOnParent } from "./adopted-copies.ts";
import { type CampaignCreateOptions, createCampaignOnce, scheduledAtFor } from "./create-campaign.ts";
import { type CampaignRequest, campaignKey, dialerOf } from "./lifecycle.ts";
import { plannedInfo } from "./planned-info.ts";
import { marginMsOf } from "./reservation-span.ts";
import { startCheckAt } from "./start-check.ts";
import { holdMsOf, startReason } from "./start-reason.ts";

/** Only what creating a campaign uses. */
export interface CreateCampaignPort {
  client: Client;
  /** Each campaign's create: its id, its sent mark, its lock. */
  memo: Pick<CreateMemo, "campaign">;
  store: Pick<CampaignRegistry, "register" | "get" | "addFollowUp">;
  controls: Pick<Controls, "isCanceled" | "isPaused">;
  /** The assistant and dialer ids the campaign is made with (pipeline/resources/campaign-records.ts). */
  records: (
    def: JobDefinition,
    key: string,
    now: number,
    variant?: string,
    /** A pool campaign's dialer (`campaign.dialers`): its resource's name or its id. */
    dialer?: string,
  ) => Promise<{ assistantId: string; dialerId: string }>;
  /** Queues the check before its start (queue/start-check.ts), ahead by the deletes of its `contacts` when known. */
  scheduleStartCheck: (info: CampaignInfo, contacts?: number) => Promise<void>;
  /** The create lock: it outlives any create still in flight from a worker that died holding it. */
  leaseMs: number;
  settleMs?: number | undefined;
  /** The least time from a create to its start, for its check (VCW_START_LEAD_MS); absent: 0. */
  startLeadMs?: number | undefined;
  /** Keeps the trace the campaign was created in, for its polls (telemetry/campaign-trace.ts). */
  rememberTrace: (campaignId: string) => Promise<void>;
  now: () => number;
}

/** One campaign job's attempt: may it wait (a worker's token). */
export interface CreateAttempt {
  canWait: boolean;
}

export type CreateOutcome =
  | { kind: "created" | "found"; id: string; info: CampaignInfo }
  | { kind: "canceled" }
  | { kind: "too-late"; reason: string }
  | { kind: "paused" }
  | { kind: "unresolved"; lookAgainAt: number; lookAgainInMs: number; message: string; cause: string };

/**
 * Creates the campaign of an imported file (a follow-up, a hand-back) exactly once and registers it
 * for polling. Waiting is an outcome, not an act: the caller delays its job for `paused` and
 * `unresolved` (a create whose answer is unknown is looked up again until the service lists it or it
 * is certainly not applied: such a campaign is never forgotten).
 */
export async function createCampaign(
  p: CreateCampaignPort,
  def: JobDefinition,
  data: CampaignRequest,
  attempt: CreateAttempt,
): Promise<CreateOutcome> {
  const key = campaignKey(data);
  const slot = p.memo.campaign(key);
  // Canceled with no create ever sent: nothing to look up. One sent is looked up all the same.
  if ((await p.controls.isCanceled(key)) && (await slot.state()).kind === "none") return { kind: "canceled" };
  // No campaign while the job is paused: look again later (not a failed attempt).
  if (attempt.canWait && (await p.controls.isPaused(data.job))) return { kind: "paused" };
  if (!def.campaign) throw new Error(`job ${data.job} has no campaign section`);
  const c = def.campaign;
  const now = p.now();
  // No start sooner than the settle time after the create (a late copy is found before anyone is
  // called), nor than the start lead (its check runs first).
  const notBefore = Math.max(now + holdMsOf(p), data.notBefore ?? now, data.budgetFrom ?? now);
  const planned = plannedStart(data, notBefore, marginMsOf(def));
  if (planned?.kind === "too-late") return { kind: "too-late", reason: planned.reason };
  const scheduledAt = planned
    ? new Date(planned.scheduledAt).toISOString()
    : scheduledAtFor(c.start, now, notBefore, data.zone ?? jobWindowOf(def).fallback);
  const using = await p.records(def, key, now, data.variant, data.dialer);
  const body = {
    campaigns_name: data.name,
    assistant_id: using.assistantId,
    contacts_id: data.segmentId,
    dialer_id: using.dialerId,
    scheduled_at: scheduledAt,
    is_automation: c.isAutomation,
  };
  const o: CampaignCreateOptions = {
    lockMs: p.leaseMs,
    mayCreate: async () => !(await p.controls.isCanceled(key)),
    // Every attempt lists the name first: Redis may lose its last writes (the job, the sent mark, the
    // id), so a first attempt may follow a create already applied (decision 0064).
    lookFirst: true,
    point: createPointOf(data),
    // Re-send an unanswered create only once the first can no longer land (VCW_SETTLE_MS).
    ...(p.settleMs === undefined ? {} : { settleMs: p.settleMs }),
  };
  let result: Awaited<ReturnType<typeof createCampaignOnce>>;
  try {
    result = await createCampaignOnce(p.client, slot, body, o);
  } catch (error) {
    if (error instanceof CreateCanceledError) return { kind: "canceled" };
    if (!(error instanceof CreateUnresolvedError) || !attempt.canWait) throw error;
    return unresolved(p, error, Date.parse((await slot.sent())?.note ?? scheduledAt));
  }
  // The start the service was sent, maybe by an earlier attempt (its mark, or the record found by
  // name when Redis lost the mark): the check and first poll follow it.
  const sent = await slot.sent();
  const start = sent?.note ?? result.scheduledAt ?? scheduledAt;
  const why = startReason(Date.parse(start), sent?.note ? sent.at : now, p);
  const info: CampaignInfo = {
    ...infoOf(data, result.id, start),
    ...(why ? { startReason: why } : {}),
    ...((sent?.sends ?? 1) > 1 ? { resent: true as const } : {}),
    ...plannedInfo(data, planned),
  };
  await registered(p, info, data, now, def.polling.startGraceSeconds * 1000);
  return { kind: result.created ? "created" : "found", id: result.id, info };
}

/** A create whose answer is unknown: looked up again, by its check's time at the latest (found then, still checked). */
function unresolved(
  p: Pick<CreateCampaignPort, "settleMs" | "startLeadMs">,
  error: CreateUnresolvedError,
  sentStart: number,
): CreateOutcome {
  const checkAt = startCheckAt(sentStart, p.settleMs ?? 0, p.startLeadMs);
  const untilCheck = Number.isFinite(checkAt) && checkAt > Date.now() ? checkAt - Date.now() : Infinity;
  const waitMs = Math.min(lookAgainAfterMs(error.sentAt, Date.now()), untilCheck);
  return {
    kind: "unresolved",
    lookAgainAt: Date.now() + waitMs,
    lookAgainInMs: waitMs,
    message: error.message,
    cause: String(error.cause ?? ""),
  };
}

/** What vcw keeps of a campaign it created (or found) for `data`, starting at `start`. */
const infoOf = (data: CampaignRequest, id: string, start: string): CampaignInfo => ({
  id,
  name: data.name,
  job: data.job,
  file: data.original,
  sha256: data.sha256,
  gen: data.gen,
  segmentId: data.segmentId,
  scheduledAt: start,
  state: "active",
  attempt: data.attempt,
  ...(data.zone ? { zone: data.zone } : {}),
  ...(data.variant ? { variant: data.variant } : {}),
  ...dialerOf(data),
  ...(data.parentId ? { parentId: data.parentId } : {}),
  followUps: [],
});

/** Registered for polling, its start checked, its trace kept, and named on its parent (a follow-up's). */
async function registered(
  p: CreateCampaignPort,
  info: CampaignInfo,
  data: Pick<CampaignRequest, "parentId" | "contacts">,
  now: number,
  startGraceMs: number,
) {
  await p.store.register(info, now, startGraceMs);
  await p.scheduleStartCheck(info, data.contacts);
  await p.rememberTrace(info.id);
  await nameOnParent(p.store, data.parentId, info.id);
}

/** The fault point before its create (lib/failpoint.ts): a file's campaign, a follow-up, a hand-back. */
const createPointOf = (r: CampaignRequest): FailpointName =>
  r.resumeOf
    ? "hand-back.before-create"
    : r.attempt > 0
      ? "follow-up.before-create"
      : "campaign.before-create";
