import { type Locked, withLock } from "../../lib/lock.ts";
import type { RedisClient } from "../../lib/redis.ts";
import type { RedisKeys } from "../../lib/redis-keys.ts";
import type { CampaignTotals } from "../model/campaign-totals.ts";
import type { Change } from "../model/result-record.ts";
import type { CampaignInfo, ResultRecord } from "../model/results.ts";
import type { CampaignRegistry } from "./campaign-registry.ts";

export interface Transition {
  phone: string;
  from: string;
  to: string;
}

export interface PollCommit {
  changes: Change[];
  transitions: Transition[];
  totals: CampaignTotals;
  digest: string;
  version: number;
  now: number;
  state: CampaignInfo["state"];
  /** The poll staged changes (`stage`): they are all written now, so the stage goes. */
  dropStaged?: boolean;
}

/** One part of a poll's changes, written with the totals they make (the poll goes on). */
export type PollCommitPart = Pick<PollCommit, "changes" | "transitions" | "totals" | "version" | "now">;

/** How long staged changes outlive a poll that died before writing them. */
const STAGE_TTL_MS = 3_600_000;

/**
 * What polls found of each campaign: its records, their fingerprints, the stream of transitions,
 * and a poll's staged changes. Keys of one campaign share a hash tag, so a poll's writes (one MULTI)
 * stay on one Redis Cluster slot; an ended campaign leaves the schedule through the registry.
 */
export function createCampaignResults(
  redis: RedisClient,
  keys: RedisKeys,
  registry: Pick<CampaignRegistry, "ended">,
) {
  const { meta, fingerprints: fps, results, events, staged } = keys.campaign;
  /** A poll's records, fingerprints and one stream entry of transitions, added to `tx`. */
  const writeChanges = (tx: ReturnType<RedisClient["multi"]>, id: string, c: PollCommitPart) => {
    // In parts: a first poll of a large campaign changes every entry, too many arguments for one call.
    for (const part of chunks(c.changes)) {
      tx.hset(fps(id), ...part.flatMap((ch) => [ch.phone, ch.fingerprint]));
      tx.hset(results(id), ...part.flatMap((ch) => [ch.phone, JSON.stringify(ch.record)]));
    }
    // One stream entry per write holds its transitions: a first poll of 100,000 entries is one command.
    if (c.transitions.length > 0) {
      tx.xadd(events(id), "*", "version", String(c.version), "transitions", JSON.stringify(c.transitions));
    }
    // Counts the writes: a reader that keeps what it read (the experiment's) knows it from the meta alone.
    tx.hincrby(meta(id), "writes", 1);
  };

  return {
    /**
     * Runs `work` as the one poll of campaign `id` under way; not acquired when another runs (no
     * wait). `lost` aborts if the lock is found taken (a long stall).
     */
    /** Runs a poll holding the campaign's poll lock; `meta` is its stored hash, read as the lock was taken. */
    polling: <T>(
      id: string,
      work: (lost: AbortSignal, meta: Record<string, string>) => Promise<T>,
    ): Promise<Locked<T>> =>
      withLock(
        redis,
        keys.campaign.pollLock(id),
        { ttlMs: 60_000, wait: false, readWith: [["hgetall", meta(id)]] },
        (lost, _token, [hash]) => work(lost, hash as Record<string, string>),
      ),
    fingerprints: (id: string) => redis.hgetall(fps(id)),
    /** The stored fingerprints of `phones` (null: none), in their order. */
    async fingerprintsOf(id: string, phones: readonly string[]): Promise<(string | null)[]> {
      const out: (string | null)[] = [];
      for (const part of chunks(phones)) out.push(...(await redis.hmget(fps(id), ...part)));
      return out;
    },

    /** Keeps changed records of a poll out of memory; `fresh` empties the stage first. */
    async stage(id: string, changes: readonly Change[], fresh: boolean): Promise<void> {
      const tx = redis.multi();
      if (fresh) tx.del(staged(id));
      for (const part of chunks(changes)) {
        tx.hset(
          staged(id),
          ...part.flatMap((c) => [c.phone, `${c.fingerprint} ${JSON.stringify(c.record)}`]),
        );
      }
      tx.pexpire(staged(id), STAGE_TTL_MS);
      await tx.exec();
    },
    /** The staged changes, a batch at a time (HSCAN: one may come twice). */
    async *staged(id: string): AsyncGenerator<Change[]> {
      let cursor = "0";
      do {
        const [next, flat] = await redis.hscan(staged(id), cursor, "COUNT", 1000);
        cursor = next;
        const batch: Change[] = [];
        for (let i = 0; i + 1 < flat.length; i += 2) {
          const value = flat[i + 1]!;
          const space = value.indexOf(" ");
          batch.push({
            phone: flat[i]!,
            fingerprint: value.slice(0, space),
            record: JSON.parse(value.slice(space + 1)) as ResultRecord,
          });
        }
        if (batch.length > 0) yield batch;
      } while (cursor !== "0");
    },
    dropStaged: async (id: string) => {
      await redis.del(staged(id));
    },

    async records(id: string, phones: readonly string[]): Promise<(ResultRecord | undefined)[]> {
      const out: (ResultRecord | undefined)[] = [];
      for (const part of chunks(phones)) {
        const raw = await redis.hmget(results(id), ...part);
        for (const r of raw) out.push(r ? (JSON.parse(r) as ResultRecord) : undefined);
      }
      return out;
    },

    /** Every record, streamed in batches (HSCAN): for reports of any size. */
    async *allRecords(id: string): AsyncGenerator<ResultRecord> {
      let cursor = "0";
      do {
        const [next, flat] = await redis.hscan(results(id), cursor, "COUNT", 1000);
        cursor = next;
        for (let i = 1; i < flat.length; i += 2) yield JSON.parse(flat[i]!) as ResultRecord;
      } while (cursor !== "0");
    },

    /** Every recorded status transition, oldest first. */
    async transitions(id: string): Promise<(Transition & { at: number; version: number })[]> {
      const entries = await redis.xrange(events(id), "-", "+");
      return entries.flatMap(([streamId, fields]) => {
        const f: Record<string, string> = {};
        for (let i = 0; i < fields.length; i += 2) f[fields[i]!] = fields[i + 1]!;
        const at = Number(streamId.split("-")[0]);
        return (JSON.parse(f.transitions ?? "[]") as Transition[]).map((t) => ({
          ...t,
          at,
          version: Number(f.version),
        }));
      });
    },

    /** The transitions recorded in [from, to) (epoch ms), oldest first, a batch of polls at a time. */
    async *transitionsBetween(
      id: string,
      from: number,
      to: number,
    ): AsyncGenerator<Transition & { at: number }> {
      let start = String(Math.max(0, from));
      const end = String(Math.max(0, to - 1));
      for (;;) {
        const entries = await redis.xrange(events(id), start, end, "COUNT", 100);
        for (const [streamId, fields] of entries) {
          const at = Number(streamId.split("-")[0]);
          const i = fields.indexOf("transitions");
          const list = i >= 0 ? (JSON.parse(fields[i + 1] ?? "[]") as Transition[]) : [];
          for (const t of list) yield { ...t, at };
        }
        if (entries.length < 100) return;
        start = `(${entries[entries.length - 1]![0]}`;
      }
    },

    /** The transitions of the last `polls` polls that changed something, newest first (the dashboard). */
    async recentTransitions(id: string, polls = 2): Promise<(Transition & { at: number })[]> {
      const entries = await redis.xrevrange(events(id), "+", "-", "COUNT", polls);
      return entries.flatMap(([streamId, fields]) => {
        const at = Number(streamId.split("-")[0]);
        const i = fields.indexOf("transitions");
        const list = i >= 0 ? (JSON.parse(fields[i + 1] ?? "[]") as Transition[]) : [];
        return list.reverse().map((t) => ({ ...t, at }));
      });
    },

    /** Writes what one poll changed, atomically. Nothing is written for an unchanged poll. */
    async commit(id: string, job: string, c: PollCommit, info: CampaignInfo): Promise<void> {
      const tx = redis.multi();
      writeChanges(tx, id, c);
      if (c.dropStaged) tx.del(staged(id));
      tx.hset(meta(id), {
        info: JSON.stringify({ ...info, state: c.state }),
        totals: JSON.stringify(c.totals),
        version: String(c.version),
        digest: c.digest,
        lastChangeAt: String(c.now),
        ...(c.state === "active" ? {} : { endedAt: String(c.now) }),
      });
      await tx.exec();
      if (c.state !== "active") {
        await registry.ended(id, job);
      }
    },

    /**
     * Writes one part of a poll's changes with the totals they make, atomically: the stored
     * records and the totals always agree. The digest is cleared until the poll's last write, so a
     * poll that dies midway is never taken for unchanged by the next one.
     */
    async commitPart(id: string, c: PollCommitPart): Promise<void> {
      const tx = redis.multi();
      writeChanges(tx, id, c);
      tx.hset(meta(id), {
        totals: JSON.stringify(c.totals),
        version: String(c.version),
        digest: "",
        lastChangeAt: String(c.now),
      });
      await tx.exec();
    },
  };
}

export type CampaignResults = ReturnType<typeof createCampaignResults>;

function chunks<T>(items: readonly T[], size = 1_000): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
