import type { Client } from "../../api/client.ts";
import type { Campaign } from "../../api/schemas/index.ts";
import type { SendFence } from "../../api/send-fence.ts";
import { countryOf } from "../../config/ingest-options.ts";
import type { JobDefinition } from "../../config/job-definition.ts";
import type { CampaignInfo, StartCheckResult } from "../model/results.ts";
import type { CampaignRegistry } from "../stores/campaign-registry.ts";
import type { StoredCampaign } from "../stores/campaign-store.ts";
import type { StartCheckStore } from "../stores/start-check-store.ts";
import { adoptCopy, emptyOwnCopy, endEmptied } from "./adopted-copies.ts";
import { type CampaignLister, namedIn } from "./campaign-listing.ts";
import { campaignKey } from "./lifecycle.ts";
import { callsOwnSegment } from "./own-segment.ts";
import { heldFence, listSegment, type SegmentListing } from "./segment-listing.ts";

export interface LateCopyDeps {
  client: Client;
  store: Pick<CampaignRegistry, "get" | "register" | "setState" | "noteStartCheck" | "addFollowUp">;
  startChecks: Pick<StartCheckStore, "exclusive">;
  /** The shared listing (campaign-listing.ts); absent: listed here. */
  listCampaigns?: CampaignLister | undefined;
  now: () => number;
}

/** What a look after the check found: copies of the name vcw did not know, now its own. */
export interface LateCopies {
  info: CampaignInfo;
  adopted: string[];
  /** Its own copy had not started: its segment was emptied, so each person is called once. */
  emptied: boolean;
  /** Its own copy started while its segment was emptied: the people its audience lists (polled on, not ended). */
  startedWhileEmptied: number;
  /** Phones, masked nowhere yet, called by the own copy and again by each late one (from the service's listings when it was emptied). */
  calledTwice: string[];
  /** The campaign's check result with the late copies added (kept on it and in the file's summary). */
  result: StartCheckResult;
}

/**
 * The look for a copy landing after the check: right before the start and at every poll until the
 * campaign ends. A copy of the name that vcw did not register (a create held in a request queue,
 * applied late, starts at once: its start is past) is adopted: polled, reported, counted. When the
 * own copy has not started yet and its segment is its own, the segment is emptied (fenced, under
 * the check's lock) so the started copy calls each person once; otherwise the calls made twice are
 * counted. Cheap when nothing is found: one shared listing, indexed by name, and a Redis read per
 * other copy of the name.
 */
export async function lookForLateCopies(
  def: JobDefinition,
  stored: StoredCampaign,
  d: LateCopyDeps,
  since?: number,
): Promise<LateCopies | undefined> {
  const info = stored.info;
  const list = d.listCampaigns ?? (() => d.client.campaigns.list());
  const named = namedIn(await list(since), info.name);
  if ((await unknownOf(named, info, d)).length === 0) return undefined;
  const key = campaignKey(info);
  return d.startChecks.exclusive(key, async (held) => {
    // Another worker may have taken them on while this one waited for the lock.
    const unknown = await unknownOf(named, info, d);
    if (unknown.length === 0) return undefined;
    const fence = heldFence(`the late-copy look of campaign ${info.id}`, held);
    return takeOn(def, stored, { named, unknown, fence }, d);
  });
}

async function unknownOf(named: readonly Campaign[], info: CampaignInfo, d: LateCopyDeps) {
  const unknown: Campaign[] = [];
  for (const c of named) if (c.id && c.id !== info.id && !(await d.store.get(c.id))) unknown.push(c);
  return unknown;
}

async function takeOn(
  def: JobDefinition,
  stored: StoredCampaign,
  o: { named: readonly Campaign[]; unknown: readonly Campaign[]; fence: SendFence },
  d: LateCopyDeps,
): Promise<LateCopies> {
  const { info } = stored;
  const listing = await listSegment(d.client, info.segmentId, countryOf(def));
  // Not listed as started (or not listed at all): counted as started, nothing is deleted on a guess.
  const ownStarted = o.named.find((c) => c.id === info.id)?.is_started !== false;
  const emptying = !ownStarted && callsOwnSegment(def, info) && o.unknown.every((c) => c.is_started);
  const lateIds = o.unknown.map((c) => c.id!);
  const emptied = emptying
    ? await emptyOwnCopy(d.client, {
        ownId: info.id,
        lateIds,
        contactIds: listing.contacts.map((c) => c.id),
        fence: o.fence,
        country: countryOf(def),
      })
    : undefined;
  const now = d.now();
  const at = new Date(now).toISOString();
  for (const c of o.unknown) await adoptCopy(d.store, info, c.id!, c.started_at || at, now);
  // Started while emptied: it calls whom it listed, so it is polled on, not ended.
  if (emptied && emptied.calls === 0) await endEmptied(d.store, info.id);
  const calledTwice = emptied ? emptied.calledTwice : o.unknown.flatMap(() => [...listing.byPhone.keys()]);
  const result = withLateCopies(stored.startCheck ?? firstLook(at, o.named, listing), {
    adopted: o.unknown.length,
    calledTwice: calledTwice.length,
    startedWhileEmptied: emptied?.calls ?? 0,
  });
  await d.store.noteStartCheck(info.id, result);
  const startedWhileEmptied = emptied?.calls ?? 0;
  return { info, adopted: lateIds, emptied: emptied?.calls === 0, startedWhileEmptied, calledTwice, result };
}

/** A campaign with no check kept (an adopted copy's own look): the counts of this look. */
const firstLook = (at: string, named: readonly Campaign[], listing: SegmentListing): StartCheckResult => ({
  at,
  campaignsListed: named.length,
  contactsListed: listing.contacts.length,
  phonesListed: listing.byPhone.size,
  duplicatesRemoved: 0,
  withdrawn: 0,
  campaignsRepaired: 0,
});

/** Pure: a check's result with copies found after it added. */
export function withLateCopies(
  before: StartCheckResult,
  late: { adopted: number; calledTwice: number; startedWhileEmptied?: number },
): StartCheckResult {
  const calledTwice = (before.calledTwice ?? 0) + late.calledTwice;
  const startedWhileEmptied = (before.startedWhileEmptied ?? 0) + (late.startedWhileEmptied ?? 0);
  return {
    ...before,
    copiesAdopted: (before.copiesAdopted ?? 0) + late.adopted,
    adoptedAfterCheck: (before.adoptedAfterCheck ?? 0) + late.adopted,
    ...(calledTwice ? { calledTwice } : {}),
    ...(startedWhileEmptied ? { startedWhileEmptied } : {}),
  };
}
