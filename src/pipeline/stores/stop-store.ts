import type { ContactCreate } from "../../api/schemas/index.ts";
import { type Locked, stillHolds, withLock } from "../../lib/lock.ts";
import type { RedisClient } from "../../lib/redis.ts";
import type { RedisKeys } from "../../lib/redis-keys.ts";

/** Why contacts were taken out of a started campaign. */
export type StopReason = "window-closed" | "opted-out" | "frequency-cap" | "operator";

/** A contact taken out of a started campaign: enough to call it again elsewhere. */
export interface WithdrawnContact {
  phone: string;
  /** The service's contact id in the campaign's segment ("" when it was left there: audience `segment`). */
  contactId: string;
  contact: ContactCreate;
  reason: StopReason;
  at: number;
  /** A poll after the delete has looked at it; `raced`: it was dialled while the stop ran. */
  checked?: boolean;
  raced?: boolean;
}

/**
 * What vcw did to stop a started campaign, kept in its meta (field `stop`): shown by `vcw status`,
 * the dashboard and reports.
 */
export interface CampaignStop {
  /** The first stop's reason and time; `reasons` every reason seen. */
  reason: StopReason;
  at: number;
  reasons: StopReason[];
  /** Contacts deleted from the campaign's own segment. */
  withdrawn: number;
  /** Contacts not yet called but left in a standing segment (audience `segment`): only flagged. */
  flagged: number;
  /** Of those, the ones the service dialled after the delete (a later poll saw them not dialled). */
  calledAfter: number;
  /** Dialled while the stop ran (between the poll it was chosen from and the delete): within the margin. */
  racedAtStop?: number;
  /** Did the service leave the deleted contacts uncalled? `pending` until the polls can tell. */
  honoured: "yes" | "no" | "pending" | "n/a";
  /** A call started after the campaign's window closed (its `callUntil`). */
  ranPastWindow: boolean;
  /** The withdrawn contacts are called again at the next opening (a window close). */
  handBack: boolean;
  /** The campaign name that calls them again, once asked for. */
  handedBackTo?: string;
}

const STOP = "stop";
const STOP_LOCK_MS = 60_000;
const REQUESTED = "stopRequested";

/** The stop store's fields of a campaign's meta hash (`raw`: the field's value, as Redis gave it). */
const stopOf = (raw: string | null | undefined) => (raw ? (JSON.parse(raw) as CampaignStop) : undefined);
const numberOf = (raw: string | null | undefined) => (raw ? Number(raw) : undefined);

/** The stop, the operator's request and the window's close, each from a campaign's meta read whole (stores/meta-once.ts). */
export const stopFieldsOf = {
  stop: (h: Record<string, string>) => stopOf(h[STOP]),
  requested: (h: Record<string, string>) => numberOf(h[REQUESTED]),
  callUntil: (h: Record<string, string>) => numberOf(h.callUntil),
};

/** Stops of campaigns in Redis: the meta's `stop` field and the hash of withdrawn contacts. */
export function createStopStore(
  redis: RedisClient,
  keys: RedisKeys,
  o: { retentionMs?: number; lockMs?: number } = {},
) {
  const lockMs = o.lockMs ?? STOP_LOCK_MS;
  const retentionMs = o.retentionMs ?? 30 * 86_400_000;
  const { meta, withdrawn } = keys.campaign;
  return {
    /**
     * Runs `work` as the one stop of campaign `id` under way (waits for another's to end); `held`
     * says, as a delete leaves, whether the stop is still this one's (and renews its lock).
     */
    exclusive: <T>(id: string, work: (held: () => Promise<boolean>) => Promise<T>): Promise<Locked<T>> => {
      const lock = keys.campaign.stopLock(id);
      return withLock(redis, lock, { ttlMs: lockMs }, (_lost, token) =>
        work(() => stillHolds(redis, lock, token, lockMs)),
      );
    },
    get: async (id: string): Promise<CampaignStop | undefined> => stopOf(await redis.hget(meta(id), STOP)),
    async set(id: string, stop: CampaignStop): Promise<void> {
      await redis.hset(meta(id), STOP, JSON.stringify(stop));
    },
    /** Writes the stop made by `make` from the number of contacts tracked so far; lists it under its job. */
    async record(id: string, job: string, make: (tracked: number) => CampaignStop): Promise<CampaignStop> {
      const stop = make(await redis.hlen(withdrawn(id)));
      await redis.hset(meta(id), STOP, JSON.stringify(stop));
      await redis.zadd(keys.stoppedCampaignsOf(job), "NX", stop.at, id);
      return stop;
    },
    /** The latest `max` campaigns of `job` vcw stopped, newest first, with their stop. */
    async latestOf(job: string, max = 20): Promise<{ id: string; stop: CampaignStop }[]> {
      const ids = await redis.zrevrange(keys.stoppedCampaignsOf(job), 0, max - 1);
      const out: { id: string; stop: CampaignStop }[] = [];
      for (const id of ids) {
        const raw = await redis.hget(meta(id), STOP);
        if (raw) out.push({ id, stop: JSON.parse(raw) as CampaignStop });
        else await redis.zrem(keys.stoppedCampaignsOf(job), id);
      }
      return out;
    },
    /** Remembers contacts before they are deleted (a crash mid-way still knows them); repeatable. */
    async track(id: string, contacts: readonly WithdrawnContact[]): Promise<void> {
      if (contacts.length === 0) return;
      const tx = redis.multi();
      for (let i = 0; i < contacts.length; i += 500) {
        const part = contacts.slice(i, i + 500);
        tx.hset(withdrawn(id), ...part.flatMap((c) => [c.phone, JSON.stringify(c)]));
      }
      tx.pexpire(withdrawn(id), retentionMs);
      await tx.exec();
    },
    /** Every contact taken out of campaign `id`, a batch at a time (HSCAN: one may come twice). */
    async *tracked(id: string): AsyncGenerator<WithdrawnContact[]> {
      let cursor = "0";
      do {
        const [next, flat] = await redis.hscan(withdrawn(id), cursor, "COUNT", 500);
        cursor = next;
        const batch: WithdrawnContact[] = [];
        for (let i = 1; i < flat.length; i += 2) batch.push(JSON.parse(flat[i]!) as WithdrawnContact);
        if (batch.length > 0) yield batch;
      } while (cursor !== "0");
    },
    /**
     * An operator asked to stop campaign `id` (`vcw stop`, the dashboard): the worker that polls it
     * next does it (it holds the service's client). The first request's time is kept.
     */
    async request(id: string, at: number): Promise<boolean> {
      return (await redis.hsetnx(meta(id), REQUESTED, String(at))) === 1;
    },
    requested: async (id: string): Promise<number | undefined> =>
      numberOf(await redis.hget(meta(id), REQUESTED)),
    /** The request was carried out (its stop is recorded). */
    async done(id: string): Promise<void> {
      await redis.hdel(meta(id), REQUESTED);
    },
    /** When the campaign's window closes for all its contacts (set by the planner), if known. */
    callUntil: async (id: string): Promise<number | undefined> =>
      numberOf(await redis.hget(meta(id), "callUntil")),
  };
}

export type StopStore = ReturnType<typeof createStopStore>;
