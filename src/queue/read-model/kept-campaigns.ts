import type { StoredCampaign } from "../../pipeline/stores/campaign-store.ts";
import type { ReadModelSources } from "./sources.ts";

/** Campaigns read at once from Redis: enough to overlap round trips, few enough to stay gentle. */
const BATCH = 64;

export interface KeptCampaigns {
  /**
   * Every kept campaign of every job: the last read if it is fresh enough for the caller (younger
   * than five times as long as it took, and at least `minMs`), else a new read (one at a time).
   */
  get(o?: { minMs?: number }): Promise<StoredCampaign[]>;
}

// One reader per sources: the overview and the campaigns view share one read of every campaign.
const shared = new WeakMap<ReadModelSources, KeptCampaigns>();

/**
 * Every kept campaign of every job, loaded here or not, read for the overview, the campaigns view and /metrics alike. The overview
 * reads afresh (`minMs: 0`) each time it is read (itself cached a second or more); the campaigns
 * view takes that read while it is fresh for it, so 10,000 campaigns are read once, not twice.
 */
export function keptCampaigns(src: ReadModelSources): KeptCampaigns {
  const known = shared.get(src);
  if (known) return known;
  let last: { campaigns: StoredCampaign[]; at: number; tookMs: number } | undefined;
  let inFlight: Promise<StoredCampaign[]> | undefined;

  async function read(): Promise<StoredCampaign[]> {
    const started = performance.now();
    const out: StoredCampaign[] = [];
    // The jobs loaded here and those loaded nowhere any more: a removed job's campaigns stay in view.
    const loaded = src.jobs();
    const jobs = new Set([...loaded.keys(), ...(await src.store.jobsWithCampaigns()).sort()]);
    for (const job of jobs) {
      const ids = await src.store.idsOf(job);
      const expired: string[] = [];
      for (let i = 0; i < ids.length; i += BATCH) {
        const slice = ids.slice(i, i + BATCH);
        const part = await Promise.all(slice.map((id) => src.store.get(id)));
        for (const [k, c] of part.entries()) c ? out.push(c) : expired.push(slice[k]!);
      }
      // A removed job's expired campaigns are read once, not at every read (its own daemon prunes a loaded one's).
      if (!loaded.has(job) && expired.length > 0)
        await src.store.forgetExpired(job, expired, expired.length === ids.length);
    }
    last = { campaigns: out, at: Date.now(), tookMs: performance.now() - started };
    return out;
  }

  const reader: KeptCampaigns = {
    get(o = {}) {
      const fresh = last && Date.now() < last.at + Math.max(o.minMs ?? 0, 5 * last.tookMs);
      if (last && fresh && !inFlight) return Promise.resolve(last.campaigns);
      inFlight ??= read().finally(() => {
        inFlight = undefined;
      });
      return inFlight;
    },
  };
  shared.set(src, reader);
  return reader;
}
