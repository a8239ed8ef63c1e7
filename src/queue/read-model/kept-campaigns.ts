import type { StoredCampaign } from "../../pipeline/results/campaign-store.ts";
import type { ReadModelSources } from "./sources.ts";

/** Campaigns read at once from Redis: enough to overlap round trips, few enough to stay gentle. */
const BATCH = 64;

export interface KeptCampaigns {
  /** Every kept campaign of every job, at most a little stale (see `keptCampaigns`). */
  get(): Promise<StoredCampaign[]>;
}

// One reader per sources: the overview and the campaigns index share one read of every campaign.
const shared = new WeakMap<ReadModelSources, KeptCampaigns>();

/**
 * Every kept campaign, read once for the overview, the campaigns view and /metrics alike, and kept
 * five times as long as the read took (at least `minMs`): 10,000 campaigns are read less often,
 * not more slowly. One reader per `src` (the first caller's `minMs` holds).
 */
export function keptCampaigns(src: ReadModelSources, o: { minMs?: number } = {}): KeptCampaigns {
  const known = shared.get(src);
  if (known) return known;
  let kept: StoredCampaign[] | undefined;
  let freshUntil = 0;
  let inFlight: Promise<StoredCampaign[]> | undefined;

  async function read(): Promise<StoredCampaign[]> {
    const started = performance.now();
    const out: StoredCampaign[] = [];
    for (const def of src.jobs().values()) {
      const ids = await src.store.idsOf(def.name);
      for (let i = 0; i < ids.length; i += BATCH) {
        const part = await Promise.all(ids.slice(i, i + BATCH).map((id) => src.store.get(id)));
        for (const c of part) if (c) out.push(c);
      }
    }
    kept = out;
    freshUntil = Date.now() + Math.max(o.minMs ?? 1_000, 5 * (performance.now() - started));
    return out;
  }

  const reader: KeptCampaigns = {
    get() {
      if (kept && Date.now() < freshUntil) return Promise.resolve(kept);
      inFlight ??= read().finally(() => {
        inFlight = undefined;
      });
      return inFlight;
    },
  };
  shared.set(src, reader);
  return reader;
}
