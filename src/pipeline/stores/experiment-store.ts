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
 * A job's experiment decisions in one Redis hash (variant -> decision). The first decision about a
 * variant stands (HSETNX): a guardrail tick or a second worker deciding again changes nothing.
 */
export function createExperimentStore(redis: RedisClient, keys: RedisKeys) {
  const read = async (job: string): Promise<ExperimentDecision[]> =>
    Object.values(await redis.hgetall(keys.experiment(job)))
      .map((json) => JSON.parse(json) as ExperimentDecision)
      .sort((a, b) => a.at - b.at || a.variant.localeCompare(b.variant));
  return {
    decisions: read,
    /** Whether the guardrail may look at `job` now: once per `everyMs` across workers. */
    mayLook: async (job: string, everyMs: number) =>
      (await redis.set(keys.experimentChecked(job), "1", "PX", everyMs, "NX")) === "OK",
    /** What assignment must honour now. */
    async assignment(job: string): Promise<AssignmentState> {
      const decisions = await read(job);
      return {
        stopped: new Set(decisions.filter((d) => d.action === "stop").map((d) => d.variant)),
        promoted: decisions.find((d) => d.action === "promote")?.variant,
      };
    },
    /** Records each decision unless its variant has one already; says which were new. */
    async decide(job: string, decisions: readonly ExperimentDecision[]): Promise<ExperimentDecision[]> {
      const added: ExperimentDecision[] = [];
      for (const d of decisions)
        if ((await redis.hsetnx(keys.experiment(job), d.variant, JSON.stringify(d))) === 1) added.push(d);
      return added;
    },
  };
}

export type ExperimentStore = ReturnType<typeof createExperimentStore>;
