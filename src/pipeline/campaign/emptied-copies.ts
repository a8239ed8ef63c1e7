import type { Client } from "../../api/client.ts";
import type { Campaign } from "../../api/schemas/index.ts";
import type { JobDefinition } from "../../config/job-definition.ts";
import { isFinalStatus } from "../model/campaign-totals.ts";
import type { CampaignInfo, StartCheckResult } from "../model/results.ts";
import type { CampaignRegistry, StoredCampaign } from "../stores/campaign-registry.ts";
import type { CampaignStore } from "../stores/campaign-store.ts";
import { adoptCopy } from "./adopted-copies.ts";
import type { CampaignLister } from "./campaign-listing.ts";

type Store = Pick<CampaignRegistry, "get" | "register" | "setState" | "addFollowUp">;

export interface EmptiedDeps {
  client: Pick<Client, "campaigns">;
  store: Store;
  /** The shared listing (campaign-listing.ts); absent: listed here. */
  listCampaigns?: CampaignLister | undefined;
  now: () => number;
}

/** What became of the copies a check or look emptied. */
export interface SettledEmptied {
  /** Listed unstarted after every delete had landed: they start with nobody, ended (finished, no call). */
  ended: string[];
  /** Maybe started before their segment was empty: polled as vcw's own (`emptiedLate`), their calls counted. */
  polled: string[];
}

/**
 * Pure: whether an emptied copy is known to start with nobody. Only a listing requested after every
 * delete had landed tells: there it is not started yet, so its audience (the segment at its start)
 * is empty. Listed as started, or not listed at all: it may have started before its segment was
 * empty (deletes at the gate's pace can outlast the lead): in doubt, it is polled.
 */
export const emptiedInTime = (after: readonly Pick<Campaign, "id" | "is_started">[], id: string) =>
  after.find((c) => c.id === id)?.is_started === false;

/**
 * Before the deletes that empty the copies `ids` (the check or look of `info`): each one vcw keeps,
 * still active, is marked `emptiedLate`, so a poll that ends it before `settleEmptied` has run (its
 * deletes outlasting its calls) counts its calls all the same. Repeatable.
 */
export async function markEmptying(
  store: Pick<Store, "get" | "setState">,
  info: CampaignInfo,
  ids: readonly string[],
): Promise<void> {
  for (const id of ids) {
    const stored = await store.get(id);
    if (stored?.info.state === "active" && !stored.info.emptiedLate)
      await store.setState(
        id,
        stored.info.job,
        { ...stored.info, emptiedLate: { checkedOn: info.id } },
        "active",
      );
  }
}

/**
 * The copies (`ids`) the check or look of `info` emptied, once their deletes have all landed (call
 * it after them). Each is ended (as vcw keeps it: finished, no call) only when a fresh listing
 * shows it not started; otherwise it stays registered and active, marked `emptiedLate`
 * (`markEmptying`), so it is polled until its audience is final and the people it called are
 * counted as called twice (`emptiedCallsOf`). A copy vcw never registered (a repair's other copy)
 * that is listed started is adopted so. Repeatable: an ended copy is left as it is.
 */
export async function settleEmptied(
  d: EmptiedDeps,
  info: CampaignInfo,
  ids: readonly string[],
): Promise<SettledEmptied> {
  const settled: SettledEmptied = { ended: [], polled: [] };
  if (ids.length === 0) return settled;
  // Requested now, after the deletes: a listing shared from before them would tell nothing.
  const after = await (d.listCampaigns ? d.listCampaigns(d.now()) : d.client.campaigns.list());
  for (const id of ids) {
    const stored = await d.store.get(id);
    if (emptiedInTime(after, id)) {
      if (stored?.info.state === "active")
        await d.store.setState(id, stored.info.job, stored.info, "finished");
      settled.ended.push(id);
      continue;
    }
    const listed = after.find((c) => c.id === id);
    if (stored) await markEmptying(d.store, info, [id]);
    else if (listed) {
      const marked = { ...info, emptiedLate: { checkedOn: info.id } };
      await adoptCopy(d.store, marked, id, listed.started_at || info.scheduledAt, d.now());
    } else continue;
    settled.polled.push(id);
  }
  return settled;
}

/** Pure: whether an audience entry's status shows a call made (final, or under way). */
export const showsCalled = (
  status: string,
  polling: Pick<JobDefinition["polling"], "statuses" | "inFlight">,
) => isFinalStatus(status, polling.statuses) || polling.inFlight.includes(status);

/** Pure: a check's result with `n` more calls made twice (an emptied copy's, counted at its end). */
export function withCalledTwice(before: StartCheckResult, n: number): StartCheckResult {
  const calledTwice = (before.calledTwice ?? 0) + n;
  return { ...before, ...(calledTwice ? { calledTwice } : {}) };
}

/** The calls an emptied copy made (decision 0080), counted into the check result of the campaign that emptied it. */
export interface EmptiedCalls {
  /** The campaign whose check or look emptied it, and its result with these calls added. */
  info: CampaignInfo;
  result: StartCheckResult;
  /** The phones its audience shows called (masked nowhere yet): each called by another copy too. */
  calledTwice: string[];
}

/**
 * An emptied copy (`emptiedLate`) ended: each person its audience shows called (a call final or
 * under way) was called by the copy that took its people on too. Added to the `calledTwice` of the
 * check result of the campaign that emptied it (its own when it emptied itself), as a late copy's.
 */
export async function emptiedCallsOf(
  d: {
    store: Pick<CampaignRegistry, "get" | "noteStartCheck"> & Pick<CampaignStore, "allRecords">;
    now: () => number;
  },
  def: JobDefinition,
  stored: StoredCampaign,
): Promise<EmptiedCalls> {
  const called = new Set<string>();
  for await (const r of d.store.allRecords(stored.info.id))
    if (showsCalled(r.status, def.polling)) called.add(r.phone);
  const phones = [...called];
  const checkedOn = stored.info.emptiedLate?.checkedOn ?? stored.info.id;
  const checked = checkedOn === stored.info.id ? stored : await d.store.get(checkedOn);
  const info = checked?.info ?? stored.info;
  const result = withCalledTwice(checked?.startCheck ?? noCheck(d.now()), phones.length);
  if (phones.length > 0) await d.store.noteStartCheck(info.id, result);
  return { info, result, calledTwice: phones };
}

/** A check result with nothing in it (the campaign that emptied the copy kept none). */
const noCheck = (now: number): StartCheckResult => ({
  at: new Date(now).toISOString(),
  campaignsListed: 0,
  contactsListed: 0,
  phonesListed: 0,
  duplicatesRemoved: 0,
  withdrawn: 0,
  campaignsRepaired: 0,
});
