import { keptCampaigns } from "../queue/read-model/kept-campaigns.ts";
import type { ReadModelSources } from "../queue/read-model/sources.ts";
import { type CampaignRow, toRow } from "./campaign-rows.ts";

/**
 * Every kept campaign as a row of the campaigns view, from the read model's one read of every
 * campaign (shared with the overview), taken while it is younger than five times as long as it
 * took and at least `minMs`: rows are made again only when that read is new.
 */
export function campaignIndex(src: ReadModelSources, o: { minMs?: number } = {}) {
  const kept = keptCampaigns(src);
  const minMs = o.minMs ?? 2_000;
  let rows: { of: unknown; rows: CampaignRow[] } | undefined;
  return {
    async get(): Promise<CampaignRow[]> {
      const stored = await kept.get({ minMs });
      if (rows?.of !== stored) {
        const now = Date.now();
        const defs = src.jobs();
        rows = { of: stored, rows: stored.map((c) => toRow(c, defs.get(c.info.job), now)) };
      }
      return rows.rows;
    },
  };
}

export type CampaignIndex = ReturnType<typeof campaignIndex>;
