import type { CampaignResults } from "../../stores/campaign-results.ts";
import type { CampaignStop, StopStore, WithdrawnContact } from "../../stores/stop-store.ts";
import { type DialStatuses, notDialled } from "./stop-selection.ts";

export interface SettledStop {
  stop: CampaignStop;
  /** Contacts taken out and still not dialled: the campaign need not wait for them. */
  waiting: WithdrawnContact[];
  /** Of those, how many a poll stored (the others the service never listed). */
  waitingPolled: number;
  /** The stop record changed with this look (the service dialled one it was told to drop). */
  changed: boolean;
}

export interface SettleOptions {
  /** The campaign is over: contacts never dialled were honoured. */
  ended?: boolean;
  /**
   * When the poll whose records are read began: contacts taken out before it are checked now. A
   * contact already dialled at its first check was dialled while the stop ran (the poll it was
   * chosen from is a little old): `raced`, no sign the service ignored the delete. One dialled at
   * a later check was: the service did not honour it. Absent: nothing is checked (a read only).
   */
  polledAt?: number;
}

/**
 * After a poll of a stopped campaign: did the service still dial contacts taken out of it? Their
 * stored records say (a status of a call begun). Writes the answer in the stop record: `honoured`
 * no, and for a window close `ranPastWindow`.
 */
export async function settleStop(
  campaignId: string,
  d: { store: Pick<CampaignResults, "records">; stops: StopStore },
  statuses: DialStatuses,
  o: SettleOptions = {},
): Promise<SettledStop | undefined> {
  const stop = await d.stops.get(campaignId);
  if (!stop) return undefined;
  const waiting = new Map<string, WithdrawnContact>();
  const ignored = new Set<string>();
  const raced = new Set<string>();
  let waitingPolled = 0;
  let pastWindow = false;
  for await (const batch of d.stops.tracked(campaignId)) {
    const records = await d.store.records(
      campaignId,
      batch.map((c) => c.phone),
    );
    const checked: WithdrawnContact[] = [];
    for (const [i, c] of batch.entries()) {
      const waits = notDialled(records[i], statuses);
      const check = !c.checked && o.polledAt !== undefined && c.at < o.polledAt;
      if (check) checked.push({ ...c, checked: true, ...(waits ? {} : { raced: true }) });
      if (c.raced || (check && !waits)) raced.add(c.phone);
      else if (!waits && c.checked) {
        ignored.add(c.phone);
        if (c.reason === "window-closed") pastWindow = true;
      }
      if (!waits) continue;
      if (records[i] && !waiting.has(c.phone)) waitingPolled += 1;
      waiting.set(c.phone, c);
    }
    await d.stops.track(campaignId, checked);
  }
  const next: CampaignStop = {
    ...stop,
    calledAfter: Math.max(stop.calledAfter, ignored.size),
    racedAtStop: raced.size,
    ranPastWindow: stop.ranPastWindow || pastWindow,
    honoured: honouredOf(stop, ignored.size, o.ended ?? false),
  };
  const changed = JSON.stringify(next) !== JSON.stringify(stop);
  if (changed) await d.stops.set(campaignId, next);
  return { stop: next, waiting: [...waiting.values()], waitingPolled, changed };
}

function honouredOf(stop: CampaignStop, ignored: number, ended: boolean): CampaignStop["honoured"] {
  if (stop.withdrawn === 0) return "n/a";
  if (ignored > 0 || stop.honoured === "no") return "no";
  return ended ? "yes" : "pending";
}
