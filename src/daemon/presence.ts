import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { RedisClient } from "../lib/redis.ts";
import type { RedisKeys } from "../lib/redis-keys.ts";

/** A running daemon as `vcw status` lists it. */
export interface DaemonPresence {
  role: "start" | "worker";
  host: string;
  pid: number;
  /** Its HTTP surface (dashboard, /metrics), or null when VCW_HTTP_ADDR=off. */
  http: string | null;
  startedAt: string;
  /** Epoch ms of its last refresh. */
  seenAt: number;
}

const EVERY_MS = 10_000;
/** Not refreshed for this long: the process is gone (killed, or its machine lost). */
const STALE_MS = 3 * EVERY_MS;

/**
 * Announces this process in one Redis hash (one key: fine on a Cluster), refreshed every 10 s. The
 * hash expires a minute after the last refresh of any process; a process that died without removing
 * its entry is ignored by readers after 30 s and removed by the next one that writes.
 */
export async function announce(
  redis: RedisClient,
  keys: RedisKeys,
  me: Omit<DaemonPresence, "host" | "pid" | "startedAt" | "seenAt">,
): Promise<{ stop(): Promise<void> }> {
  const id = `${hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;
  const startedAt = new Date().toISOString();
  const write = async () => {
    const entry: DaemonPresence = {
      ...me,
      host: hostname(),
      pid: process.pid,
      startedAt,
      seenAt: Date.now(),
    };
    await redis.hset(keys.daemons, id, JSON.stringify(entry));
    await redis.pexpire(keys.daemons, 2 * STALE_MS);
    const stale = (await listDaemons(redis, keys, { includeStale: true })).filter((d) => d.stale);
    if (stale.length) await redis.hdel(keys.daemons, ...stale.map((d) => d.id));
  };
  await write();
  const timer = setInterval(() => void write().catch(() => undefined), EVERY_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await redis.hdel(keys.daemons, id).catch(() => undefined);
    },
  };
}

/** The daemons that announced themselves recently. */
export async function listDaemons(
  redis: RedisClient,
  keys: RedisKeys,
  o: { includeStale?: boolean; now?: number } = {},
): Promise<(DaemonPresence & { id: string; stale: boolean })[]> {
  const now = o.now ?? Date.now();
  const all = Object.entries(await redis.hgetall(keys.daemons)).flatMap(([id, text]) => {
    try {
      const d = JSON.parse(text) as DaemonPresence;
      return [{ ...d, id, stale: now - d.seenAt > STALE_MS }];
    } catch {
      return [];
    }
  });
  return all.filter((d) => o.includeStale || !d.stale).sort((a, b) => a.startedAt.localeCompare(b.startedAt));
}
