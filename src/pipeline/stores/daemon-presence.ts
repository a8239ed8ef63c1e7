import type { RedisClient } from "../../lib/redis.ts";
import type { RedisKeys } from "../../lib/redis-keys.ts";

/** A running daemon as `vcw status` lists it, and what it loads. */
export interface DaemonPresence {
  role: "start" | "worker";
  host: string;
  pid: number;
  /** Its HTTP surface (dashboard, /metrics), or null when VCW_HTTP_ADDR=off. */
  http: string | null;
  startedAt: string;
  /** Epoch ms of its last refresh, by Redis's clock. */
  seenAt: number;
  /** The jobs whose poll schedule it ticks (`vcw start`: those with a campaign section). Absent: an earlier version. */
  ticks?: string[];
  /** Every job it loaded. Absent: an earlier version. */
  loaded?: string[];
}

/** How often a daemon refreshes its entry. */
export const PRESENCE_EVERY_MS = 10_000;
/** Not refreshed for this long: the process is gone (killed, or its machine lost). */
const STALE_MS = 3 * PRESENCE_EVERY_MS;

/**
 * The daemons' presence in one Redis hash (one key: fine on a Cluster), each entry refreshed by its
 * daemon (daemon/presence.ts). The hash expires a minute after the last refresh of any process; an
 * entry not refreshed for 30 s is ignored by readers and removed by the next one that writes.
 */
export function createPresenceStore(redis: RedisClient, keys: RedisKeys) {
  // Redis's clock, not each host's: a reader or daemon whose clock runs ahead would take every entry for stale.
  const redisNow = async () => {
    const [seconds, micros] = await redis.time();
    return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
  };
  const list = async (
    o: { includeStale?: boolean; now?: number } = {},
  ): Promise<(DaemonPresence & { id: string; stale: boolean })[]> => {
    const now = o.now ?? (await redisNow());
    const all = Object.entries(await redis.hgetall(keys.daemons)).flatMap(([id, text]) => {
      try {
        const d = JSON.parse(text) as DaemonPresence;
        return [{ ...d, id, stale: now - d.seenAt > STALE_MS }];
      } catch {
        return [];
      }
    });
    return all
      .filter((d) => o.includeStale || !d.stale)
      .sort((a, b) => a.startedAt.localeCompare(b.startedAt));
  };
  return {
    /** The daemons that announced themselves recently. */
    list,
    /** Writes (or refreshes) one daemon's entry, and removes the entries gone stale. */
    async write(id: string, entry: Omit<DaemonPresence, "seenAt">): Promise<void> {
      await redis.hset(keys.daemons, id, JSON.stringify({ ...entry, seenAt: await redisNow() }));
      await redis.pexpire(keys.daemons, 2 * STALE_MS);
      const stale = (await list({ includeStale: true })).filter((d) => d.stale);
      if (stale.length) await redis.hdel(keys.daemons, ...stale.map((d) => d.id));
    },
    async remove(id: string): Promise<void> {
      await redis.hdel(keys.daemons, id);
    },
  };
}

export type PresenceStore = ReturnType<typeof createPresenceStore>;
