import { keysMatching } from "../../lib/delete-keys.ts";
import type { RedisClient } from "../../lib/redis.ts";
import type { RedisKeys } from "../../lib/redis-keys.ts";
import { defineScript, luaFile } from "../../lib/scripts.ts";
import { type CampaignTotals, totalsFromJson } from "../model/campaign-totals.ts";
import { firstPollAt } from "../model/poll-cadence.ts";
import type { CampaignInfo, StartCheckResult } from "../model/results.ts";

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
  luaFile(import.meta.url, "lua/claim-due-polls.lua"),
);

/**
 * The campaigns vcw keeps and their poll schedule: each campaign's info and meta, the job's indexes
 * (all, active) and due times. The per-job indexes have their job's hash tag and are written apart:
 * each write there is idempotent, and a poll of a campaign that is no longer active removes it from `active`.
 */
export function createCampaignRegistry(
  redis: RedisClient,
  keys: RedisKeys,
  o: { retentionMs?: number } = {},
) {
  const { meta, fingerprints: fps, results, events } = keys.campaign;
  const retentionMs = o.retentionMs ?? 30 * 86_400_000;
  const active = keys.activeCampaignsOf;
  const all = keys.campaignsOf;
  const due = keys.dueCampaignsOf;
  /** The campaign's meta hash as it is, every field (stores/meta-once.ts reads it once for several stores). */
  const metaOf = (id: string): Promise<Record<string, string>> => redis.hgetall(meta(id));
  /** A campaign no longer polled leaves the job's active set and poll schedule (one hash tag: one MULTI). */
  const unlist = async (id: string, job: string) => {
    await redis.multi().srem(active(job), id).zrem(due(job), id).exec();
  };
  /** An ended campaign leaves the schedule; its data lives `retentionMs` more, then goes. */
  const ended = async (id: string, job: string) => {
    await unlist(id, job);
    const tx = redis.multi();
    for (const key of [meta(id), fps(id), results(id), events(id)]) tx.pexpire(key, retentionMs);
    await tx.exec();
  };

  return {
    /**
     * Registers a new campaign; repeatable (a retried job registers it again, changing nothing). First
     * polled `startGraceMs` after its start (its job's `polling.startGraceSeconds`).
     */
    async register(info: CampaignInfo, now: number, startGraceMs?: number): Promise<void> {
      // Only what has no default: an absent totals, version, digest, lastChangeAt or sentVersion reads
      // as a campaign never polled (storedCampaignOf), and each field kept costs about 56 bytes a
      // campaign (a hash table: `info` is longer than a listpack's values).
      await redis
        .multi()
        .hsetnx(meta(info.id), "info", JSON.stringify(info))
        .hsetnx(meta(info.id), "createdAt", String(now))
        .exec();
      // Not polled before its scheduled start; a retried register keeps the time already set (NX).
      const pollAt = firstPollAt(info.scheduledAt, now, startGraceMs);
      await redis
        .multi()
        .sadd(all(info.job), info.id)
        .sadd(active(info.job), info.id)
        .zadd(due(info.job), "NX", pollAt, info.id)
        .exec();
      // Apart: another slot than the job's indexes.
      await redis.sadd(keys.jobsWithCampaigns, info.job);
    },

    /** Every job that has had a campaign registered (operations.md: a job nobody polls). */
    jobsWithCampaigns: (): Promise<string[]> => redis.smembers(keys.jobsWithCampaigns),
    /** Names jobs as having campaigns (a scheduler's loaded jobs: a register lost between its writes is repaired). */
    async noteJobsWithCampaigns(jobs: readonly string[]): Promise<void> {
      if (jobs.length > 0) await redis.sadd(keys.jobsWithCampaigns, ...jobs);
    },
    /**
     * Once per deployment: the jobs whose campaigns were registered before the index existed, found
     * by their active sets (SCAN, every master), so a job removed with the upgrade is named too. A
     * deployment's first daemon finds no epoch (queue data of an earlier start) and scans nothing.
     */
    async backfillJobsWithCampaigns(): Promise<number> {
      const mark = keys.migration("jobs-with-campaigns");
      if ((await redis.exists(mark)) === 1) return 0;
      // No epoch yet (a first start, or Redis lost its data): nothing from before to find, no scan of
      // every key (a shared Redis may hold millions).
      if ((await redis.exists(keys.epoch)) === 0) {
        await redis.set(mark, String(Date.now()));
        return 0;
      }
      const [head, tail] = active("\u0000").split("\u0000") as [string, string];
      const glob = (text: string) => text.replace(/[*?[\]\\]/g, "\\$&");
      const jobs = new Set<string>();
      for await (const key of keysMatching(redis, `${glob(head)}*${glob(tail)}`))
        if (key.startsWith(head) && key.endsWith(tail)) jobs.add(key.slice(head.length, -tail.length));
      if (jobs.size > 0) await redis.sadd(keys.jobsWithCampaigns, ...jobs);
      await redis.set(mark, String(Date.now()));
      return jobs.size;
    },
    /**
     * A job loaded nowhere here: its campaigns whose data expired (`ids`) leave its index, and the
     * job leaves the jobs with campaigns once none is left (a daemon that loads it names it again).
     */
    async forgetExpired(job: string, ids: readonly string[], none: boolean): Promise<void> {
      if (ids.length > 0) await redis.srem(all(job), ...ids);
      if (!none) return;
      await redis.srem(keys.jobsWithCampaigns, job);
      // A campaign registered meanwhile (another slot: no transaction spans both) puts it back.
      if ((await redis.scard(all(job))) > 0) await redis.sadd(keys.jobsWithCampaigns, job);
    },
    /** How many campaigns of a job are still polled (active). */
    activeCountOf: (job: string): Promise<number> => redis.scard(active(job)),

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

    get: async (id: string): Promise<StoredCampaign | undefined> => storedCampaignOf(await metaOf(id)),
    metaOf,

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

    /**
     * Every campaign of a job still kept, by id, with the `fields` of its meta: the reads of a chunk
     * sent at once (one round trip, each on its own slot). Those whose meta expired (none of the
     * fields, `info` among them) are dropped from the index.
     */
    async *keptMetasOf<F extends string>(
      job: string,
      fields: readonly F[],
      chunk = 1_000,
    ): AsyncGenerator<[string, Partial<Record<F, string>>]> {
      const ids = (await redis.smembers(all(job))).sort();
      for (let i = 0; i < ids.length; i += chunk) {
        const part = ids.slice(i, i + chunk);
        const rows = await Promise.all(part.map((id) => redis.hmget(meta(id), ...fields)));
        for (const [j, id] of part.entries()) {
          const row = rows[j]!;
          if (row.every((v) => v === null)) {
            await redis.srem(all(job), id);
            continue;
          }
          const found: Partial<Record<F, string>> = {};
          for (const [k, f] of fields.entries()) if (row[k] !== null) found[f] = row[k]!;
          yield [id, found];
        }
      }
    },

    async setState(id: string, job: string, info: CampaignInfo, state: CampaignInfo["state"]): Promise<void> {
      await redis.hset(meta(id), {
        info: JSON.stringify({ ...info, state }),
        ...(state === "active" ? {} : { endedAt: String(Date.now()) }),
      });
      if (state !== "active") {
        await ended(id, job);
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

    ended,
  };
}

export type CampaignRegistry = ReturnType<typeof createCampaignRegistry>;

/** A campaign as its meta hash holds it; undefined when the hash holds none. */
export function storedCampaignOf(h: Record<string, string>): StoredCampaign | undefined {
  if (!h.info) return undefined;
  return {
    info: JSON.parse(h.info) as CampaignInfo,
    totals: totalsFromJson(h.totals),
    version: Number(h.version ?? 0),
    digest: h.digest ?? "",
    createdAt: Number(h.createdAt ?? 0),
    lastChangeAt: Number(h.lastChangeAt ?? h.createdAt ?? 0),
    endedAt: Number(h.endedAt ?? 0),
    sentVersion: Number(h.sentVersion ?? 0),
    ...(h.stop ? { stop: JSON.parse(h.stop) } : {}),
    ...(h.startCheck ? { startCheck: JSON.parse(h.startCheck) } : {}),
  };
}
