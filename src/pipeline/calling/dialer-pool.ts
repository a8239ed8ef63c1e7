import { type DialerPool, poolDialerName } from "../../config/dialer-pool-definition.ts";
import type { JobDefinition } from "../../config/job-definition.ts";
import { assignDialers, type DialerShare, type GrantCalls } from "./dialer-assignment.ts";
import { type DialerChoice, type PoolNumber, placesOf, rankDialers } from "./dialer-match.ts";

/** A spent number's contacts wait at most this long for a period with budget; the rest are left out. */
const WAIT_HORIZON_MS = 7 * 86_400_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** The pool's dialers with their numbers: an id's from the job, a resource's as `vcw apply` applied it. */
export async function poolNumbers(
  pool: DialerPool,
  numberOfResource: (name: string) => Promise<string>,
): Promise<PoolNumber[]> {
  return Promise.all(
    pool.pool.map(async (d) => ({
      name: poolDialerName(d),
      number: "resource" in d ? await numberOfResource(d.resource) : d.number,
    })),
  );
}

/** The start of the UTC hour (an hourly budget) or day after the one holding `t`. */
export const nextBudgetPeriod = (pool: DialerPool) => (t: number) => {
  const step = pool.perNumber?.perHour !== undefined ? HOUR_MS : DAY_MS;
  return Math.floor(t / step) * step + step;
};

/**
 * The dialers of one planned campaign's contacts (the daemon's and `vcw preview`'s one path): each
 * ranked by the job's match order, then shared out under the per-number budgets `grant` keeps.
 */
export async function dialerSharesOf(
  pool: DialerPool,
  numbers: readonly PoolNumber[],
  phones: readonly string[],
  at: number,
  key: string,
  grant: GrantCalls,
): Promise<{ shares: DialerShare[]; unplaced: string[]; unmatched: string[] }> {
  const places = placesOf(numbers);
  const ranks = new Map<string, DialerChoice[]>(
    phones.map((p) => [p, rankDialers(p, numbers, pool.match, places)]),
  );
  return assignDialers(
    phones,
    ranks,
    {
      at,
      whenSpent: pool.perNumber?.whenSpent ?? "next",
      nextPeriod: nextBudgetPeriod(pool),
      horizonMs: WAIT_HORIZON_MS,
      key,
    },
    grant,
  );
}

/** The job's pool, when it calls through one. */
export const poolOf = (def: JobDefinition): DialerPool | undefined => def.campaign?.dialers;
