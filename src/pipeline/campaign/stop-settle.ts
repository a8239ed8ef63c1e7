import type { CampaignStore } from "../results/campaign-store.ts";
import { type DialStatuses, notDialled } from "./stop-selection.ts";
import type { CampaignStop, StopStore, WithdrawnContact } from "./stop-store.ts";

export interface SettledStop {
  stop: CampaignStop;
  /** Contacts taken out and still not dialled: the campaign need not wait for them. */
  waiting: WithdrawnContact[];
  /** Of those, how many a poll stored (the others the service never listed). */
  waitingPolled: number;
  /** The stop record changed with this look (the service dialled one it was told to drop). */
  changed: boolean;
}

/**
 * After a poll of a stopped campaign: did the service still dial contacts taken out of it? Their
 * stored records say (a status of a call begun). Writes the answer in the stop record: `honoured`
 * no, a call after the window closed flagged as `ranPastWindow`; `ended`: the campaign is over, so
 * contacts never dialled were honoured.
 */
export async function settleStop(
  campaignId: string,
  d: { store: CampaignStore; stops: StopStore },
  statuses: DialStatuses,
  ended = false,
): Promise<SettledStop | undefined> {
  const stop = await d.stops.get(campaignId);
  if (!stop) return undefined;
  const waiting = new Map<string, WithdrawnContact>();
  const dialled = new Set<string>();
  let waitingPolled = 0;
  let pastWindow = false;
  for await (const batch of d.stops.tracked(campaignId)) {
    const records = await d.store.records(
      campaignId,
      batch.map((c) => c.phone),
    );
    for (const [i, c] of batch.entries()) {
      if (notDialled(records[i], statuses)) {
        if (records[i] && !waiting.has(c.phone)) waitingPolled += 1;
        waiting.set(c.phone, c);
        continue;
      }
      dialled.add(c.phone);
      if (c.reason === "window-closed") pastWindow = true;
    }
  }
  const next: CampaignStop = {
    ...stop,
    calledAfter: Math.max(stop.calledAfter, dialled.size),
    ranPastWindow: stop.ranPastWindow || pastWindow,
    honoured: honouredOf(stop, dialled.size, ended),
  };
  const changed = JSON.stringify(next) !== JSON.stringify(stop);
  if (changed) await d.stops.set(campaignId, next);
  return { stop: next, waiting: [...waiting.values()], waitingPolled, changed };
}

function honouredOf(stop: CampaignStop, dialled: number, ended: boolean): CampaignStop["honoured"] {
  if (stop.withdrawn === 0) return "n/a";
  if (dialled > 0 || stop.honoured === "no") return "no";
  return ended ? "yes" : "pending";
}
