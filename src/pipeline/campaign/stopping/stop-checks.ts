import { underCallingRules } from "../../../config/calling-rules-switch.ts";
import { countryOf } from "../../../config/ingest-options.ts";
import type { JobDefinition } from "../../../config/job-definition.ts";
import { fitsCaps } from "../../calling/frequency.ts";
import { capsFor, jobWindowOf } from "../../calling/plan-settings.ts";
import type { CampaignTotals } from "../../model/campaign-totals.ts";
import type { CampaignInfo, ResultRecord } from "../../model/results.ts";
import type { CallFrequency } from "../../stores/call-frequency.ts";
import type { StopReason } from "../../stores/stop-store.ts";
import { type CampaignRequest, campaignKey } from "../lifecycle.ts";
import { callsOwnSegment } from "../own-segment.ts";
import { rateNow } from "../segment-listing.ts";
import { type StopDeps, type StopRequest, type StopResult, stopCampaign } from "./stop-campaign.ts";
import { type HandBackDeps, handBack } from "./stop-hand-back.ts";
import { type DialStatuses, notDialled, overWithWithdrawn } from "./stop-selection.ts";
import { type SettledStop, type SettleOptions, settleStop } from "./stop-settle.ts";
import { callUntilOf, stopBeginsAt } from "./window-close.ts";

/**
 * What a poll of a started campaign checks besides its audience: an operator's stop, its window
 * closing, numbers opted out (or over a frequency cap) since it was made; then, after the poll,
 * whether the service honoured what was taken out, and the hand-back once it ended. The poll's
 * schedule drives it: polls survive restarts (their due times are in Redis) and run once per
 * campaign at a time across workers (their lock), and the poll is made due ahead of `callUntil`
 * (windowStopBegins: its deletes land before it, decision 0080).
 */
export interface StopCheckDeps extends StopDeps, HandBackDeps {
  /** The caps' store: a number another campaign's reservations put over a cap is taken out. */
  frequency: HandBackDeps["frequency"] & Pick<CallFrequency, "othersOfEach">;
  /** Time between two looks for opt-outs in a campaign's records (10 s). */
  optOutCheckMs?: number;
  /** Time between two looks for numbers over a cap (60 s: a reservation elsewhere is rarer than an opt-out). */
  capCheckMs?: number;
  /** The shared request rate now, a second: a window-close stop's deletes go at it (unknown: 20, the gate's start). */
  requestRate?: () => Promise<number | undefined>;
}

const statusesOf = (def: JobDefinition): DialStatuses => ({
  pending: def.polling.statuses.pending,
  inFlight: def.polling.inFlight,
});

const lastLook = new Map<string, number>();
const lastCapLook = new Map<string, number>();

/**
 * After a poll (its records fresh): the stops due now. Each is repeatable (stopCampaign's tracking).
 * `periodMs`: the gap between two ticks of the job's poll schedule (a stop made due runs that late).
 */
export async function stopsDue(
  def: JobDefinition,
  { info, totals }: { info: CampaignInfo; totals: CampaignTotals },
  d: StopCheckDeps,
  now: number,
  periodMs = 0,
): Promise<(StopResult & { reason: StopReason })[]> {
  const own = callsOwnSegment(def, info);
  const base = { ownSegment: own, statuses: statusesOf(def), now };
  const deps = { ...d, country: countryOf(def) };
  const out: (StopResult & { reason: StopReason })[] = [];
  const run = async (r: Omit<StopRequest, "ownSegment" | "statuses" | "now">) => {
    out.push({ ...(await stopCampaign(info.id, { ...base, ...r }, deps)), reason: r.reason });
  };
  if ((await d.stops.requested(info.id)) !== undefined) {
    await run({ reason: "operator", handBack: false });
    // Another stop of it held the lock (state unknown): the request stays for the next poll.
    if (out.at(-1)?.state !== "unknown") await d.stops.done(info.id);
    return out;
  }
  const stop = await d.stops.get(info.id);
  if (stop?.reasons.includes("operator")) return out;
  const until = await callUntilFor(def, info, d);
  const begins = await stopBeginsFrom(until, def, { info, totals }, d, periodMs);
  if (begins !== undefined && now >= begins && !stop?.reasons.includes("window-closed"))
    await run({ reason: "window-closed", handBack: own });
  // Only while calls remain to be made: then the campaign's records are read (an HSCAN).
  if (mayDialMore(totals, def) && now - (lastLook.get(info.id) ?? 0) >= (d.optOutCheckMs ?? 10_000)) {
    lastLook.set(info.id, now);
    const caps = underCallingRules(def) && now - (lastCapLook.get(info.id) ?? 0) >= (d.capCheckMs ?? 60_000);
    if (caps) lastCapLook.set(info.id, now);
    const { optedOut, capped } = await listedOrCapped(def, info, d, now, caps ? (until ?? now) : undefined);
    if (optedOut.size > 0) await run({ reason: "opted-out", handBack: false, phones: optedOut });
    if (capped.size > 0) await run({ reason: "frequency-cap", handBack: false, phones: capped });
  }
  return out;
}

/**
 * The numbers of a started campaign not dialled yet that may not be called any more: opted out or
 * on a do-not-call list since it was made, or over a cap another campaign's reservation reached.
 * Not dialled: a record whose call has not begun, or a member of its segment with no record yet
 * (a service may list a call only once it is made): nobody listed before their dial is called.
 */
async function listedOrCapped(
  def: JobDefinition,
  info: CampaignInfo,
  d: StopCheckDeps,
  now: number,
  /** Check the caps for calls until then; undefined: not this time. */
  until: number | undefined,
): Promise<{ optedOut: Set<string>; capped: Set<string> }> {
  const optedOut = new Set<string>();
  const capped = new Set<string>();
  const key = campaignKey(info);
  for await (const phones of undialledPhones(info, d, statusesOf(def))) {
    for (const phone of await d.suppression.which(phones)) optedOut.add(phone);
    if (until === undefined) continue;
    const checked = phones
      .filter((p) => !optedOut.has(p))
      .map((phone) => ({ phone, caps: capsFor(def, phone, info.region) }));
    const withCaps = checked.filter((c) => c.caps.length > 0);
    const others = await d.frequency.othersOfEach(
      withCaps.map((c) => c.phone),
      key,
      now,
    );
    withCaps.forEach((c, i) => {
      if (!fitsCaps(others[i]!, c.caps, now, Math.max(until, now))) capped.add(c.phone);
    });
  }
  return { optedOut, capped };
}

/**
 * When the window-close stop of a campaign begins (stopBeginsAt): ahead of its `callUntil` by its
 * poll schedule's period and the deletes of the contacts not dialled yet (those its last poll saw,
 * and the members its audience listed none of); undefined when its window never closes.
 */
export async function windowStopBegins(
  def: JobDefinition,
  { info, totals }: { info: CampaignInfo; totals: CampaignTotals },
  d: Pick<StopCheckDeps, "stops" | "requestRate">,
  periodMs: number,
): Promise<number | undefined> {
  return stopBeginsFrom(await callUntilFor(def, info, d), def, { info, totals }, d, periodMs);
}

/** The same, its `callUntil` read already. */
async function stopBeginsFrom(
  until: number | undefined,
  def: JobDefinition,
  { info, totals }: { info: CampaignInfo; totals: CampaignTotals },
  d: Pick<StopCheckDeps, "requestRate">,
  periodMs: number,
): Promise<number | undefined> {
  if (until === undefined) return undefined;
  const perSecond = await rateNow(d.requestRate);
  return stopBeginsAt(until, { undialled: undialledCount(totals, info, def), perSecond, periodMs });
}

/** A status of a call not begun: none yet, or pending and not under way. */
const notBegun = (status: string, s: DialStatuses) =>
  status === "none" || (s.pending.includes(status) && !s.inFlight.includes(status));

/** Contacts not dialled by the last poll: its records not begun, and what its audience did not list yet. */
function undialledCount(totals: CampaignTotals, info: CampaignInfo, def: JobDefinition): number {
  const s = statusesOf(def);
  let n = 0;
  for (const [status, count] of Object.entries(totals.byStatus)) if (notBegun(status, s)) n += count;
  return n + Math.max(0, (info.audience ?? 0) - totals.contacts);
}

/** Calls may remain to be made: none seen yet, or some pending and not under way. */
function mayDialMore(totals: CampaignTotals, def: JobDefinition): boolean {
  if (totals.contacts === 0) return true;
  const s = statusesOf(def);
  return Object.entries(totals.byStatus).some(([status, n]) => n > 0 && notBegun(status, s));
}

/** The planner's `callUntil` (meta), else the close of the job's window open at the start. */
export async function callUntilFor(def: JobDefinition, info: CampaignInfo, d: Pick<StopCheckDeps, "stops">) {
  const stored = (info as { callUntil?: number }).callUntil ?? (await d.stops.callUntil(info.id));
  return callUntilOf(
    { ...info, zone: info.zone ?? jobWindowOf(def).fallback, callUntil: stored },
    def.campaign?.start,
  );
}

const BATCH = 1_000;

/**
 * Phones of the campaign not dialled yet, in batches: its records whose call has not begun, then
 * the members of its segment (the ledger's) with no record.
 */
async function* undialledPhones(
  info: CampaignInfo,
  d: StopCheckDeps,
  s: DialStatuses,
): AsyncGenerator<string[]> {
  const recorded = new Set<string>();
  let batch: string[] = [];
  for await (const r of d.store.allRecords(info.id) as AsyncIterable<ResultRecord>) {
    if (recorded.has(r.phone)) continue;
    recorded.add(r.phone);
    if (notDialled(r, s)) batch.push(r.phone);
    if (batch.length >= BATCH) {
      yield batch;
      batch = [];
    }
  }
  for await (const members of d.ledger.members(info.segmentId)) {
    for (const phone of members) {
      if (recorded.has(phone)) continue;
      recorded.add(phone);
      batch.push(phone);
    }
    if (batch.length >= BATCH) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/** The poll's `overWithWithdrawn`: taken-out contacts no longer keep the campaign open. */
export function overWithWithdrawnFor(def: JobDefinition, d: StopCheckDeps) {
  return async (id: string, totals: CampaignTotals, listed: number | undefined) => {
    const settled = await settleStop(id, d, statusesOf(def));
    return (
      settled !== undefined &&
      overWithWithdrawn(totals, settled.waiting.length, settled.waitingPolled, listed)
    );
  };
}

/** After a poll of a stopped campaign: the stop record brought up to date. */
export async function afterStoppedPoll(
  def: JobDefinition,
  info: CampaignInfo,
  o: SettleOptions,
  d: StopCheckDeps,
): Promise<SettledStop | undefined> {
  const settled = await settleStop(info.id, d, statusesOf(def), o);
  if (o.ended) {
    lastLook.delete(info.id);
    lastCapLook.delete(info.id);
  }
  return settled;
}

/**
 * Once a stopped campaign ended: the contacts a window close took out and the service never
 * dialled are handed back (stop-hand-back.ts).
 */
export async function resumeStopped(
  def: JobDefinition,
  info: CampaignInfo,
  d: StopCheckDeps,
  now: number,
): Promise<{ settled?: SettledStop; resume?: CampaignRequest; contacts?: number }> {
  const settled = await afterStoppedPoll(def, info, { ended: true }, d);
  if (!settled) return {};
  const handed = await handBack(def, info, settled.waiting, d, now);
  return { settled, ...(handed ? { resume: handed.request, contacts: handed.contacts } : {}) };
}
