import type { DialerPool } from "./dialer-pool-definition.ts";
import { formatProblem, type JobProblem } from "./job-problems.ts";
import { loadResources } from "./load-resources.ts";

export interface PoolResources {
  pools: ReadonlyMap<string, DialerPool>;
  /** Pools declared but not valid, by name: their problems, each with file and field. */
  bad: ReadonlyMap<string, JobProblem[]>;
}

/** The dialer pools of resources/ by name, as jobs read them (nothing of a pool is on the service). */
export async function poolResources(dir: string): Promise<PoolResources> {
  const loaded = await loadResources(dir);
  return { pools: new Map(loaded.pools.map((p) => [p.name, p.spec])), bad: loaded.badPools };
}

/**
 * A job document with `campaign.dialers: { resource }` given the pool it names, so the daemon,
 * `vcw preview` and `vcw jobs check` parse one job; a pool not there is a problem of that field.
 */
export function withPoolResource(
  raw: unknown,
  { pools, bad }: PoolResources,
  dir: string,
): { value: unknown } | { problem: Omit<JobProblem, "file" | "line"> } {
  const campaign = (raw as { campaign?: unknown } | null)?.campaign;
  const dialers = (campaign as { dialers?: unknown } | null | undefined)?.dialers;
  const name = (dialers as { resource?: unknown } | null | undefined)?.resource;
  if (typeof name !== "string" || Object.keys(dialers as object).length !== 1) return { value: raw };
  const pool = pools.get(name);
  const path = "campaign.dialers.resource";
  const wrong = bad.get(name);
  if (wrong)
    return {
      problem: {
        path,
        message: `names dialerPool "${name}", which is not valid: ${wrong.map(formatProblem).join("; ")}`,
      },
    };
  if (!pool) return { problem: { path, message: `no dialerPool named "${name}" in ${dir}` } };
  return {
    value: { ...(raw as object), campaign: { ...(campaign as object), dialers: structuredClone(pool) } },
  };
}
