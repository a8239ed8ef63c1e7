import type { RedisClient } from "../../lib/redis.ts";
import type { RedisKeys } from "../../lib/redis-keys.ts";
import type { AssignmentState } from "../variant-assignment.ts";

/** A decision about one variant: it gets no new contacts (stop), or all of them (promote). */
export interface ExperimentDecision {
  variant: string;
  action: "stop" | "promote";
  by: "operator" | "guardrail";
  /** Epoch ms. */
  at: number;
  /** In words, with its figures (the guardrail's comparison). */
  reason: string;
  figures?: Record<string, number | string>;
}

/**
 * What one planned campaign took of a file's contacts for one variant: the intention to treat.
 * `assigned` contacts were given the variant; `setAside` of them were not put in the campaign
 * (called within the cooldown, or over a frequency cap), so it was made for the rest.
 */
export interface Assignment {
  /** The planned campaign's `assignmentKey` (variant-assignment.ts). */
  key: string;
  variant: string;
  assigned: number;
  setAside: number;
  /** When the file's campaigns were planned (epoch ms). */
  at: number;
}

const DAY_MS = 86_400_000;
/** Contacts kept per batch of Redis commands. */
const BATCH = 1_000;

/**
 * An experiment's decisions, its people and its assignments (`id`: config's `experimentId`, the job
 * and the experiment's name). Decisions are one hash (variant -> decision): the first decision
 * about a variant stands (HSETNX), so a guardrail tick or a second worker deciding again changes
 * nothing. People: number -> the variant first given (HSETNX), kept `retentionMs` past the last.
 */
export function createExperimentStore(redis: RedisClient, keys: RedisKeys, o: { retentionMs?: number } = {}) {
  const keepMs = o.retentionMs ?? 30 * DAY_MS;
  const read = async (id: string): Promise<ExperimentDecision[]> =>
    Object.values(await redis.hgetall(keys.experiment(id)))
      .map((json) => JSON.parse(json) as ExperimentDecision)
      .sort((a, b) => a.at - b.at || a.variant.localeCompare(b.variant));
  return {
    decisions: read,
    /** Whether the guardrail may look at `id` now: once per `everyMs` across workers. */
    mayLook: async (id: string, everyMs: number) =>
      (await redis.set(keys.experimentChecked(id), "1", "PX", everyMs, "NX")) === "OK",
    /** What assignment must honour now: the decisions, and the variants `phones` were given before. */
    async assignment(id: string, phones: readonly string[] = []): Promise<AssignmentState> {
      const decisions = await read(id);
      const earlier = new Map<string, string>();
      for (let i = 0; i < phones.length; i += BATCH) {
        const batch = phones.slice(i, i + BATCH);
        const found = await redis.hmget(keys.experimentPeople(id), ...batch);
        batch.forEach((p, j) => {
          if (found[j]) earlier.set(p, found[j]!);
        });
      }
      return {
        stopped: new Set(decisions.filter((d) => d.action === "stop").map((d) => d.variant)),
        promoted: decisions.find((d) => d.action === "promote")?.variant,
        ...(earlier.size > 0 ? { earlier } : {}),
      };
    },
    /** Records each decision unless its variant has one already; says which were new. */
    async decide(id: string, decisions: readonly ExperimentDecision[]): Promise<ExperimentDecision[]> {
      const added: ExperimentDecision[] = [];
      for (const d of decisions)
        if ((await redis.hsetnx(keys.experiment(id), d.variant, JSON.stringify(d))) === 1) added.push(d);
      return added;
    },
    /** The variants a planned campaign gave its contacts, and what it took of them (repeatable: same key, same entry). */
    async assign(id: string, a: Assignment, phones: readonly string[]): Promise<void> {
      for (let i = 0; i < phones.length; i += BATCH) {
        const m = redis.multi();
        for (const p of phones.slice(i, i + BATCH)) m.hsetnx(keys.experimentPeople(id), p, a.variant);
        await m.exec();
      }
      await redis
        .multi()
        .hset(keys.experimentAssigned(id), a.key, JSON.stringify(a))
        .pexpire(keys.experimentPeople(id), keepMs)
        .pexpire(keys.experimentAssigned(id), keepMs)
        .exec();
    },
    /**
     * Once per experiment and deployment: the variants of people called before this store kept them
     * (campaigns made before issue 41), so they keep theirs too. Repeatable: HSETNX, then the mark.
     */
    needsBackfill: async (id: string) =>
      (await redis.exists(keys.migration(`experiment-people:${id}`))) === 0,
    async backfill(id: string, people: () => Iterable<[string, string]>): Promise<number> {
      const mark = keys.migration(`experiment-people:${id}`);
      if ((await redis.exists(mark)) === 1) return 0;
      let n = 0;
      let m = redis.multi();
      for (const [phone, variant] of people()) {
        m.hsetnx(keys.experimentPeople(id), phone, variant);
        if (++n % BATCH === 0) {
          await m.exec();
          m = redis.multi();
        }
      }
      await m.pexpire(keys.experimentPeople(id), keepMs).set(mark, String(Date.now())).exec();
      return n;
    },
    /** Every planned campaign's assignment. */
    assignments: async (id: string): Promise<Assignment[]> =>
      Object.values(await redis.hgetall(keys.experimentAssigned(id))).map((j) => JSON.parse(j) as Assignment),
  };
}

export type ExperimentStore = ReturnType<typeof createExperimentStore>;
