import type { StoredCampaign } from "../pipeline/results/campaign-store.ts";
import { type CampaignRow, toRow } from "./campaign-rows.ts";
import type { OverviewSources } from "./overview.ts";

/** Campaigns read at once from Redis: enough to overlap round trips, few enough to stay gentle. */
const BATCH = 64;

/**
 * Every kept campaign as a row of the campaigns view, read once for all viewers and kept five times
 * as long as the read took (at least `minMs`): 10,000 campaigns are read less often, not more slowly.
 */
export function campaignIndex(src: OverviewSources, o: { minMs?: number } = {}) {
  let rows: CampaignRow[] | undefined;
  let freshUntil = 0;
  let inFlight: Promise<CampaignRow[]> | undefined;

  async function read(): Promise<CampaignRow[]> {
    const started = performance.now();
    const defs = src.jobs();
    const out: CampaignRow[] = [];
    const now = Date.now();
    for (const def of defs.values()) {
      const ids = await src.redis.smembers(src.keys.campaignsOf(def.name));
      for (let i = 0; i < ids.length; i += BATCH) {
        const part = await Promise.all(ids.slice(i, i + BATCH).map((id) => src.store.get(id)));
        for (const c of part as (StoredCampaign | undefined)[]) if (c) out.push(toRow(c, def, now));
      }
    }
    rows = out;
    freshUntil = Date.now() + Math.max(o.minMs ?? 2_000, 5 * (performance.now() - started));
    return out;
  }

  return {
    get(): Promise<CampaignRow[]> {
      if (rows && Date.now() < freshUntil) return Promise.resolve(rows);
      inFlight ??= read().finally(() => {
        inFlight = undefined;
      });
      return inFlight;
    },
  };
}

export type CampaignIndex = ReturnType<typeof campaignIndex>;
