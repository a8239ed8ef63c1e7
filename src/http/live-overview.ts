import { maskPhone, maskPhonesIn } from "../lib/mask-phone.ts";
import { withTimeout } from "../lib/with-timeout.ts";
import { type Overview, type OverviewSources, readOverview } from "./overview.ts";

const EMPTY: Omit<Overview, "generatedAt" | "redis"> = {
  rate: null,
  queues: [],
  jobs: [],
  inFlight: [],
  recentFiles: [],
  campaigns: [],
  campaignsNotMade: [],
  campaignCounts: [],
  failedDeliveries: [],
  retryingDeliveries: [],
  pendingCampaigns: [],
  preflights: [],
  next: { start: null, reports: [] },
  numbers: [],
  unpolledJobs: [],
};

/**
 * The overview, read once for every viewer and scrape: one read at a time, kept for five times as
 * long as it took (at least `minMs`), so a deployment with many campaigns is read less often
 * instead of more slowly. When Redis doesn't answer, the last good read comes back marked so.
 */
export function liveOverview(
  src: OverviewSources,
  o: { minMs?: number; maxMs?: number; timeoutMs?: number } = {},
) {
  const minMs = o.minMs ?? 1_000;
  const maxMs = o.maxMs ?? 30_000;
  let last: Overview | undefined;
  let freshUntil = 0;
  let inFlight: Promise<Overview> | undefined;

  async function refresh(): Promise<Overview> {
    const started = performance.now();
    const timedOut = Symbol("timeout");
    try {
      const read = await withTimeout<Overview | typeof timedOut>(
        readOverview(src),
        o.timeoutMs ?? 3_000,
        timedOut,
      );
      if (read === timedOut) throw new Error("Redis did not answer within 3 s");
      const took = performance.now() - started;
      last = read;
      freshUntil = Date.now() + Math.min(maxMs, Math.max(minMs, 5 * took));
      return read;
    } catch (error) {
      freshUntil = Date.now() + minMs;
      return {
        ...(last ?? EMPTY),
        generatedAt: new Date().toISOString(),
        redis: {
          ok: false,
          error: error instanceof Error ? error.message : String(error),
          ...(last?.redis.readAt ? { readAt: last.redis.readAt } : {}),
        },
      };
    }
  }

  return {
    get(): Promise<Overview> {
      if (last && Date.now() < freshUntil) return Promise.resolve(last);
      inFlight ??= refresh().finally(() => {
        inFlight = undefined;
      });
      return inFlight;
    },
  };
}

export type LiveOverview = ReturnType<typeof liveOverview>;

/**
 * What a page may show: phones masked (in status changes, failure reasons, and the names of files
 * and campaigns, which are the operator's and may hold one) unless `reveal`.
 */
export function present(o: Overview, reveal: boolean): Overview & { phones: "masked" | "shown" } {
  if (reveal) return { ...o, phones: "shown" };
  return {
    ...o,
    phones: "masked",
    campaigns: o.campaigns.map((c) => ({
      ...c,
      name: maskPhonesIn(c.name),
      file: maskPhonesIn(c.file),
      recent: c.recent.map((t) => ({ ...t, phone: maskPhone(t.phone) })),
    })),
    campaignsNotMade: o.campaignsNotMade.map((c) => ({
      ...c,
      name: maskPhonesIn(c.name),
      file: maskPhonesIn(c.file),
      reason: maskPhonesIn(c.reason),
    })),
    inFlight: o.inFlight.map((f) => ({ ...f, file: maskPhonesIn(f.file) })),
    next: { ...o.next, start: o.next.start && { ...o.next.start, name: maskPhonesIn(o.next.start.name) } },
    pendingCampaigns: o.pendingCampaigns.map((c) => ({
      ...c,
      file: maskPhonesIn(c.file),
      name: maskPhonesIn(c.name),
    })),
    recentFiles: o.recentFiles.map((f) => ({
      ...f,
      file: maskPhonesIn(f.file),
      reason: f.reason && maskPhonesIn(f.reason),
    })),
    failedDeliveries: o.failedDeliveries.map((d) => ({
      ...d,
      campaign: d.campaign && maskPhonesIn(d.campaign),
      reason: maskPhonesIn(d.reason),
    })),
    retryingDeliveries: o.retryingDeliveries.map((d) => ({
      ...d,
      campaign: d.campaign && maskPhonesIn(d.campaign),
      reason: maskPhonesIn(d.reason),
    })),
    ...(o.redis.error ? { redis: { ...o.redis, error: maskPhonesIn(o.redis.error) } } : {}),
  };
}
