import type { Campaign, ContactCreate } from "../../api/schemas/index.ts";
import type { SendFence } from "../../api/send-fence.ts";
import { countryOf } from "../../config/ingest-options.ts";
import type { JobDefinition } from "../../config/job-definition.ts";
import type { CampaignInfo, StartCheckResult } from "../model/results.ts";
import type { AuditLog } from "../stores/audit-log.ts";
import type { CampaignRegistry } from "../stores/campaign-registry.ts";
import type { StartCheckStore } from "../stores/start-check-store.ts";
import type { SuppressionList } from "../stores/suppression.ts";
import { emptyOwnCopy } from "./adopted-copies.ts";
import { auditWithdrawn } from "./call-audit.ts";
import { type CampaignLister, namedIn } from "./campaign-listing.ts";
import { type CampaignRequest, campaignKey } from "./lifecycle.ts";
import { callsOwnSegment, fileIntoOwnSegment, type OwnSegmentDeps } from "./own-segment.ts";
import {
  contactOf,
  deleteContacts,
  extraCopies,
  heldFence,
  listSegment,
  type SegmentListing,
} from "./segment-listing.ts";

export interface StartCheckDeps extends OwnSegmentDeps {
  store: Pick<CampaignRegistry, "get" | "noteStartCheck">;
  suppression: Pick<SuppressionList, "optedOut" | "doNotCall">;
  /** Each check's result and a repair's kept contacts, per campaign identity. */
  startChecks: StartCheckStore;
  now: () => number;
  /** The account's campaigns, one listing shared by the checks of a tick (campaign-listing.ts); else listed here. */
  listCampaigns?: CampaignLister;
  /** The audit trail: each number withdrawn, and why. */
  audit?: Pick<AuditLog, "append">;
}

/** What the check found and did; `repair`, the fresh campaign to create when its name was listed twice. */
export interface StartCheck {
  info: CampaignInfo;
  result: StartCheckResult;
  repair?: CampaignRequest;
  /** The copies a repair emptied (their ids): they call nobody, so vcw ends them rather than poll them to `stuck`. */
  emptied?: string[];
  /** Copies of its name another create made and the service started already: vcw polls them as its own. */
  adopt?: string[];
  /** Phones its own copy calls all the same (it started while its segment was emptied) that an adopted copy calls too. */
  calledTwice?: string[];
}

/**
 * When a campaign starting at `startAt` is checked: a little before, never more than 5 s, never
 * less than half the start lead (VCW_START_LEAD_MS: with no settle time it still runs first). Pure.
 */
export const startCheckAt = (startAt: number, settleMs: number, startLeadMs = 0) =>
  startAt - Math.min(5_000, Math.max(Math.floor(startLeadMs / 2), Math.floor(settleMs / 4)));

/**
 * When a campaign starting at `startAt` looks again for late copies (late-copies.ts): half way from
 * its check to its start, so a copy landing after the check is still found before the start. Both
 * are asked for with `startAt` less the time their deletes take (queue/start-check.ts), so that an
 * emptying they begin has landed by the real start. Pure.
 */
export const lateLookAt = (startAt: number, settleMs: number, startLeadMs = 0) =>
  startAt - Math.floor((startAt - startCheckAt(startAt, settleMs, startLeadMs)) / 2);

/**
 * The check before a campaign's start, once per campaign identity (its result kept in Redis, under
 * a lock, so the check of a late copy reads the same answer). It lists the campaigns of its name
 * and its segment once. One campaign: extra copies of a phone are deleted, and (its own segment)
 * every copy of a phone opted out or on a do-not-call list since the import. Two or more (a late
 * create): their shared segment is emptied, so whichever copy starts calls nobody, and its contacts
 * are filed, once each, into a fresh segment for a fresh campaign (`repair`).
 */
export async function checkBeforeStart(
  def: JobDefinition,
  campaignId: string,
  d: StartCheckDeps,
): Promise<StartCheck | undefined> {
  const stored = await d.store.get(campaignId);
  if (!stored) return undefined;
  const info = stored.info;
  const key = campaignKey(info);
  const check = await d.startChecks.once(key, (held) =>
    checkOnce(def, info, { key, fence: heldFence(`the check of campaign ${info.id}`, held) }, d),
  );
  await d.store.noteStartCheck(campaignId, check.result);
  return { ...check, info };
}

async function checkOnce(
  def: JobDefinition,
  info: CampaignInfo,
  { key, fence }: { key: string; fence: SendFence },
  d: StartCheckDeps,
): Promise<StartCheck> {
  const all = await (d.listCampaigns ?? (() => d.client.campaigns.list()))();
  const named = namedIn(all, info.name);
  const listing = await listSegment(d.client, info.segmentId, countryOf(def));
  const phones = [...listing.byPhone.keys()];
  const [optedOut, listed] = await Promise.all([
    d.suppression.optedOut(phones),
    d.suppression.doNotCall(phones),
  ]);
  // A standing segment (audience `segment`) is shared: only extra copies leave it.
  const own = callsOwnSegment(def, info);
  const withdrawn = own ? new Set([...optedOut, ...listed.keys()]) : new Set<string>();
  const result = resultOf(named, listing, withdrawn);
  // Too late: a started campaign is stopped only by the stop checks, which keep their own records;
  // unless a repair emptied its segment already (its contacts kept): it goes on.
  const repairing = await d.startChecks.repairing(key);
  const startedCopies = named.filter((c) => c.is_started && c.id && c.id !== info.id);
  if (startedCopies.length > 0 && !repairing)
    return adoptStarted(
      info,
      { named, listing, own, counted: result, startedCopies, fence, country: countryOf(def) },
      d,
    );
  if (result.startedBeforeCheck && !repairing)
    return { info, result: { ...result, duplicatesRemoved: 0, withdrawn: 0 } };
  if (repairing) return repair(def, info, { key, named, listing, withdrawn, counted: result, fence }, d);
  if (named.length > 1 && own)
    return repair(def, info, { key, named, listing, withdrawn, counted: result, fence }, d);
  const extras = extraCopies(listing).filter((c) => !withdrawn.has(c.phone));
  const out = [...withdrawn].flatMap((phone) => listing.byPhone.get(phone) ?? []);
  const gone = [...withdrawn].filter((phone) => listing.byPhone.has(phone));
  await auditWithdrawn(d.audit, info, gone, listed, d.now());
  await deleteContacts(
    d.client,
    [...extras, ...out].map((c) => c.id),
    fence,
  );
  return { info, result };
}

/**
 * Another copy of the name started already (a create applied after its start time had passed): it
 * calls the segment as it stood. Its own copy, not started yet, is emptied (its own segment), so
 * each person is called once, by the started copy, which vcw adopts (polled, reported, counted).
 * Both started, or a standing segment: nothing can be taken back; the calls twice are counted.
 */
async function adoptStarted(
  info: CampaignInfo,
  o: {
    named: readonly Campaign[];
    listing: SegmentListing;
    own: boolean;
    counted: StartCheckResult;
    startedCopies: readonly Campaign[];
    fence: SendFence;
    country: ReturnType<typeof countryOf>;
  },
  d: StartCheckDeps,
): Promise<StartCheck> {
  const adopt = o.startedCopies.map((c) => c.id!);
  const ownStarted = o.named.some((c) => c.id === info.id && c.is_started);
  const base = { ...o.counted, duplicatesRemoved: 0, withdrawn: 0, copiesAdopted: adopt.length };
  if (ownStarted || !o.own) {
    // Each copy calls every phone of the segment: one call each is wanted.
    const calledTwice = o.listing.byPhone.size * adopt.length;
    return { info, result: { ...base, ...(calledTwice ? { calledTwice } : {}) }, adopt };
  }
  const emptied = await emptyOwnCopy(d.client, {
    ownId: info.id,
    lateIds: adopt,
    contactIds: o.listing.contacts.map((c) => c.id),
    fence: o.fence,
    country: o.country,
  });
  if (emptied.calls === 0) return { info, result: base, adopt, emptied: [info.id] };
  // It started while the deletes ran: polled on (not ended), its calls made twice counted.
  const twice = emptied.calledTwice;
  const result = {
    ...base,
    startedWhileEmptied: emptied.calls,
    ...(twice.length ? { calledTwice: twice.length } : {}),
  };
  return { info, result, adopt, calledTwice: twice };
}

/** The counts, from the listings alone. */
function resultOf(
  named: readonly Campaign[],
  listing: SegmentListing,
  withdrawn: ReadonlySet<string>,
): StartCheckResult {
  const started = named.filter((c) => c.is_started).length;
  return {
    at: new Date().toISOString(),
    campaignsListed: named.length,
    contactsListed: listing.contacts.length,
    phonesListed: listing.byPhone.size,
    duplicatesRemoved: extraCopies(listing).filter((c) => !withdrawn.has(c.phone)).length,
    withdrawn: [...withdrawn].filter((p) => listing.byPhone.has(p)).length,
    campaignsRepaired: 0,
    ...(started > 0 ? { startedBeforeCheck: started } : {}),
  };
}

/**
 * A second campaign of the name: the contacts to keep remembered first (a retry after the segment
 * was emptied finds them there), the shared segment emptied, the kept ones filed into a fresh
 * segment, and the fresh campaign's request returned.
 */
async function repair(
  def: JobDefinition,
  info: CampaignInfo,
  o: {
    key: string;
    named: readonly Campaign[];
    listing: SegmentListing;
    withdrawn: ReadonlySet<string>;
    counted: StartCheckResult;
    fence: SendFence;
  },
  d: StartCheckDeps,
): Promise<StartCheck> {
  const { key, listing, withdrawn, counted } = o;
  const fresh = [...listing.byPhone].flatMap(([phone, copies]) =>
    withdrawn.has(phone) ? [] : [{ phone, contact: contactOf(phone, copies[0]!.listed) }],
  );
  const keep = await d.startChecks.keepOnce(key, fresh);
  await deleteContacts(
    d.client,
    listing.contacts.map((c) => c.id),
    o.fence,
  );
  const n = (info.repair ?? 0) + 1;
  const name = `${info.name.replace(/ repaired \d+$/, "")} repaired ${n}`;
  const { segmentId } = await fileIntoOwnSegment(
    { name, description: `Contacts of ${info.file} called by campaign ${name}` },
    rowsOf(keep),
    { owner: `repair-${key}`, country: countryOf(def) },
    d,
  );
  const result = { ...counted, campaignsRepaired: 1, repairedInto: name };
  const emptied = o.named.flatMap((c) => (c.id ? [c.id] : []));
  return { info, result, repair: repairRequest(info, name, segmentId, n), emptied };
}

async function* rowsOf(keep: readonly { phone: string; contact: ContactCreate }[]) {
  for (const [index, k] of keep.entries()) yield { phone: k.phone, contact: k.contact, index };
}

/** The fresh campaign: the first one's identity and plan, its own segment and name, never sooner. */
function repairRequest(info: CampaignInfo, name: string, segmentId: string, n: number): CampaignRequest {
  const scheduledAt = Date.parse(info.scheduledAt);
  return {
    job: info.job,
    sha256: info.sha256,
    gen: info.gen,
    original: info.file,
    segmentId,
    attempt: info.attempt,
    name,
    repair: n,
    ...(info.zone ? { zone: info.zone } : {}),
    ...(info.slot ? { slot: info.slot } : {}),
    ...(info.region ? { region: info.region } : {}),
    ...(info.hours ? { hours: info.hours as CampaignRequest["hours"] } : {}),
    ...(info.callBy !== undefined ? { callBy: info.callBy } : {}),
    ...(info.callUntil !== undefined ? { callUntil: info.callUntil } : {}),
    ...(info.expectedEndAt !== undefined ? { expectedEndAt: info.expectedEndAt } : {}),
    ...(info.slot && Number.isFinite(scheduledAt) ? { scheduledAt } : {}),
    ...(info.resumeOf ? { resumeOf: info.resumeOf } : {}),
    // A follow-up's repair is still its parent's follow-up: named there once it is made.
    ...(info.parentId ? { parentId: info.parentId } : {}),
    ...(Number.isFinite(scheduledAt) ? { notBefore: scheduledAt } : {}),
  };
}
