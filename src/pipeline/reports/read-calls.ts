import type { ResultRecord } from "../model/results.ts";
import type { CampaignStore } from "../stores/campaign-store.ts";
import type { CallFact } from "./figures.ts";

/** The calls that ended, with what their records say (read in batches). */
export async function callFacts(
  store: Pick<CampaignStore, "records">,
  id: string,
  ends: Map<string, { at: number; status: string }>,
  pause: (calls: number) => Promise<void>,
): Promise<CallFact[]> {
  const phones = [...ends.keys()];
  const records = phones.length > 0 ? await store.records(id, phones) : [];
  await pause(phones.length);
  return phones.map((phone, i) => {
    const end = ends.get(phone)!;
    const r: Partial<ResultRecord> = records[i] ?? {};
    return {
      phone,
      status: end.status,
      at: end.at,
      durationSec: r.durationSec ?? 0,
      sentiment: r.sentiment ?? "",
      meeting: r.meeting ?? false,
      transferred: r.transferred ?? false,
      messageSent: r.messageSent ?? false,
    };
  });
}
