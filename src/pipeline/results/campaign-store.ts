import type { RedisClient } from "../../lib/redis.ts";
import type { RedisKeys } from "../../lib/redis-keys.ts";
import { defineScript } from "../../lib/scripts.ts";
import { type CampaignTotals, emptyTotals } from "./campaign-totals.ts";
import type { CampaignInfo, ResultRecord, StartCheckResult } from "./model.ts";
import { firstPollAt } from "./poll-cadence.ts";
import type { Change } from "./result-record.ts";

/** A campaign as the worker keeps it in Redis. */
export interface StoredCampaign {
  info: CampaignInfo;
  totals: CampaignTotals;
  /** Bumped by every poll that changed something. */
  version: number;
  /** Digest of the last audience seen: an unchanged poll is recognised with one read. */
  digest: string;
  createdAt: number;
  lastChangeAt: number;
  /** When it ended (finished or stuck); 0 while active. */
  endedAt: number;
  /** Last version sent as progress. */
  sentVersion: number;
  /** What vcw did to stop it, as stores/stop-store.ts keeps it (the fields reports read). */
  stop?: {
    reasons?: string[];
    withdrawn?: number;
    flagged?: number;
    honoured?: string;
    ranPastWindow?: boolean;
    calledAfter?: number;
  };
  /** What the check before its start found and did (campaign/start-check.ts). */
  startCheck?: StartCheckResult;
}

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

/** What a poll tick took: the campaigns due, and how late the most overdue of them was. */
export interface DueClaim {
  ids: string[];
  /** When the most overdue campaign taken was due (epoch ms); undefined when none was. */
  oldestDueAt: number | undefined;
}

/** How far behind a job's last poll tick was, as the scheduler recorded it. */
export interface PollLag {
  at: number;
  lagMs: number;
  due: number;
  behind: boolean;
  /** How long the tick took to take and enqueue its polls. */
  enqueueMs?: number;
}

/**
 * Takes the campaigns due by ARGV[1] and moves each to ARGV[2] (a lease: polled by then, its poll
 * sets the next time), atomically, so that replicas ticking together take each campaign once.
 */
const claimDue = defineScript<[string, string[]]>(
  "claim_due_polls",
  1,
  `local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'WITHSCORES', 'LIMIT', 0, tonumber(ARGV[3]))
local ids = {}
local oldest = ''
for i = 1, #due, 2 do
  ids[#ids + 1] = due[i]
  if oldest == '' then oldest = due[i + 1] end
end
for i = 1, #ids, 500 do
  local args = {}
  for j = i, math.min(i + 499, #ids) do
    args[#args + 1] = ARGV[2]
    args[#args + 1] = ids[j]
  end
  redis.call('ZADD', KEYS[1], 'XX', unpack(args))
end
return {oldest, ids}`,
);

/** How long staged changes outlive a poll that died before writing them. */
const STAGE_TTL_MS = 3_600_000;

/**
 * Keys of one campaign share a hash tag, so a poll's writes (one MULTI) stay on one Redis Cluster
 * slot. The per-job indexes (all, active) have their job's tag and are written apart: each write
 * there is idempotent, and a poll of a campaign that is no longer active removes it from `active`.
 */
export function createCampaignStore(redis: RedisClient, keys: RedisKeys, o: { retentionMs?: number } = {}) {
  const { meta, fingerprints: fps, results, events, staged } = keys.campaign;
  const retentionMs = o.retentionMs ?? 30 * 86_400_000;
  /** An ended campaign's data lives `retentionMs` more, then goes. */
  const expire = async (id: string) => {
    const tx = redis.multi();
    for (const key of [meta(id), fps(id), results(id), events(id)]) tx.pexpire(key, retentionMs);
    await tx.exec();
  };
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
  };
  const active = keys.activeCampaignsOf;
  const all = keys.campaignsOf;
  const due = keys.dueCampaignsOf;
  /** A campaign no longer polled leaves the job's active set and poll schedule (one hash tag: one MULTI). */
  const unlist = async (id: string, job: string) => {
    await redis.multi().srem(active(job), id).zrem(due(job), id).exec();
  };

  return {
    /** Registers a new campaign; repeatable (a retried job registers it again, changing nothing). */
    async register(info: CampaignInfo, now: number): Promise<void> {
      await redis
        .multi()
        .hsetnx(meta(info.id), "info", JSON.stringify(info))
        .hsetnx(meta(info.id), "totals", JSON.stringify(emptyTotals()))
        .hsetnx(meta(info.id), "version", "0")
        .hsetnx(meta(info.id), "digest", "")
        .hsetnx(meta(info.id), "createdAt", String(now))
        .hsetnx(meta(info.id), "lastChangeAt", String(now))
        .hsetnx(meta(info.id), "sentVersion", "0")
        .exec();
      // Not polled before its scheduled start; a retried register keeps the time already set (NX).
      const pollAt = firstPollAt(info.scheduledAt, now);
      await redis
        .multi()
        .sadd(all(info.job), info.id)
        .sadd(active(info.job), info.id)
        .zadd(due(info.job), "NX", pollAt, info.id)
        .exec();
    },

    /** Drops a campaign that is no longer active from its job's active set. */
    retire: unlist,

    /**
     * Takes the campaigns of a job due by `now` for one tick: each is moved to `leaseUntil`, so
     * another replica's tick doesn't take it, and a poll lost on the way is taken again then.
     */
    async claimDue(job: string, now: number, leaseUntil: number, max = 1_000_000): Promise<DueClaim> {
      const [oldest, ids] = await claimDue(redis, [due(job)], [now, leaseUntil, max]);
      return { ids, oldestDueAt: oldest === "" ? undefined : Number(oldest) };
    },
    /** When the campaign is polled next (only while it is still on the schedule). */
    async schedulePoll(job: string, id: string, at: number): Promise<void> {
      await redis.zadd(due(job), "XX", Math.round(at), id);
    },
    /** When each campaign is polled next, if it is on the schedule (tests, the benchmark). */
    nextPollOf: async (job: string, id: string) => {
      const score = await redis.zscore(due(job), id);
      return score === null ? undefined : Number(score);
    },
    /** The scheduler's record of its last tick of a job, and reading it (the overview, metrics). */
    async setPollLag(job: string, lag: PollLag, ttlMs: number): Promise<void> {
      await redis.set(keys.pollLagOf(job), JSON.stringify(lag), "PX", Math.max(1, Math.round(ttlMs)));
    },
    async pollLag(job: string): Promise<PollLag | undefined> {
      const raw = await redis.get(keys.pollLagOf(job));
      return raw ? (JSON.parse(raw) as PollLag) : undefined;
    },

    async get(id: string): Promise<StoredCampaign | undefined> {
      const h = await redis.hgetall(meta(id));
      if (!h.info) return undefined;
      return {
        info: JSON.parse(h.info) as CampaignInfo,
        totals: JSON.parse(h.totals ?? "null") ?? emptyTotals(),
        version: Number(h.version ?? 0),
        digest: h.digest ?? "",
        createdAt: Number(h.createdAt ?? 0),
        lastChangeAt: Number(h.lastChangeAt ?? 0),
        endedAt: Number(h.endedAt ?? 0),
        sentVersion: Number(h.sentVersion ?? 0),
        ...(h.stop ? { stop: JSON.parse(h.stop) } : {}),
        ...(h.startCheck ? { startCheck: JSON.parse(h.startCheck) } : {}),
      };
    },

    /** Keeps what the check before its start found (its own field: a poll rewriting `info` leaves it). */
    async noteStartCheck(id: string, check: StartCheckResult): Promise<void> {
      await redis.hset(meta(id), "startCheck", JSON.stringify(check));
    },

    activeOf: (job: string) => redis.smembers(active(job)),
    /** The ids the job's index lists, as they are (some may have expired: `get` says so). */
    idsOf: (job: string) => redis.smembers(all(job)),
    /** Every campaign of a job still kept; those whose data expired are dropped from the index. */
    async allOf(job: string): Promise<string[]> {
      const ids = await redis.smembers(all(job));
      const kept: string[] = [];
      for (const id of ids) {
        if ((await redis.exists(meta(id))) === 1) kept.push(id);
        else await redis.srem(all(job), id);
      }
      return kept;
    },
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
        await unlist(id, job);
        await expire(id);
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

    async setState(id: string, job: string, info: CampaignInfo, state: CampaignInfo["state"]): Promise<void> {
      await redis.hset(meta(id), {
        info: JSON.stringify({ ...info, state }),
        ...(state === "active" ? {} : { endedAt: String(Date.now()) }),
      });
      if (state !== "active") {
        await unlist(id, job);
        await expire(id);
      }
    },

    async addFollowUp(id: string, info: CampaignInfo, followUpId: string): Promise<void> {
      if (info.followUps.includes(followUpId)) return;
      await redis.hset(
        meta(id),
        "info",
        JSON.stringify({ ...info, followUps: [...info.followUps, followUpId] }),
      );
    },

    /** Records that `version` was sent as progress; false when it (or a later one) already was. */
    async markSent(id: string, version: number): Promise<boolean> {
      const previous = Number(await redis.hget(meta(id), "sentVersion"));
      if (previous >= version) return false;
      await redis.hset(meta(id), "sentVersion", String(version));
      return true;
    },
  };
}

export type CampaignStore = ReturnType<typeof createCampaignStore>;

function chunks<T>(items: readonly T[], size = 1_000): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
