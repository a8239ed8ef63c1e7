import type { JobDefinition } from "../../config/job-definition.ts";
import { dialerSharesOf, poolNumbers, poolOf } from "../calling/dialer-pool.ts";
import { SKIP_REASONS } from "../calling/skip-reasons.ts";
import type { DialerBudgets } from "../stores/dialer-budget.ts";
import type { RestFigures } from "../stores/number-rests.ts";
import type { PlanStore } from "../stores/plan-store.ts";
import { type CampaignRequest, campaignKey } from "./lifecycle.ts";
import { type PoolHealthDeps, restingNumbers } from "./pool-health.ts";

/** A pool's budgets and its resources' numbers (as `vcw apply` applied them). */
export interface DialerPoolDeps extends PoolHealthDeps {
  budgets: Pick<DialerBudgets, "grant">;
  /** Where each planned campaign's resting numbers are kept once (a retry splits it the same way). */
  plans: Pick<PlanStore, "once">;
  resources: { dialerNumber(resource: string): Promise<string> };
}

/** One campaign of a pool's dialer: its request (named and keyed by dialer) and its contacts. */
export interface DialerPart {
  request: CampaignRequest;
  phones: string[];
  /** Why its contacts matched its dialer, by count (absent without a pool). */
  matched?: Record<string, number>;
}

/**
 * A planned campaign's request split per pool dialer (`campaign.dialers`): its contacts matched and
 * granted under the per-number budgets, each share a campaign of its own named "… via DIALER"
 * (and "from DAY" when it waited for its number's next period). A resting number (pool-health.ts)
 * is left out, its callees going to their next match, unless every number rests. Without a pool:
 * as it is.
 */
export async function splitByDialer(
  def: JobDefinition,
  request: CampaignRequest,
  phones: readonly string[],
  at: number,
  d: DialerPoolDeps,
  now: number,
): Promise<{ parts: DialerPart[]; skipped: Record<string, number>; resting: RestFigures[] }> {
  const pool = poolOf(def);
  if (!pool) return { parts: [{ request, phones: [...phones] }], skipped: {}, resting: [] };
  const all = await poolNumbers(pool, (name) => d.resources.dialerNumber(name));
  // Decided once per planned campaign: a retry after a rest began or ended makes the same campaigns.
  const resting = new Map(
    await d.plans.once(`rests:${campaignKey(request)}`, async () => [
      ...(await restingNumbers(
        def,
        all.map((n) => n.number),
        d,
        now,
      )),
    ]),
  );
  const healthy = all.filter((n) => !resting.has(n.number));
  const numbers = healthy.length > 0 ? healthy : all;
  const budget = pool.perNumber ?? {};
  const { shares, unplaced, unmatched } = await dialerSharesOf(
    pool,
    numbers,
    phones,
    at,
    campaignKey(request),
    (choice, field, n, t) => d.budgets.grant(choice.number, field, n, t, budget),
  );
  const skipped: Record<string, number> = {};
  if (unmatched.length > 0) skipped[SKIP_REASONS.noDialerMatch] = unmatched.length;
  if (unplaced.length > 0) skipped[SKIP_REASONS.dialerBudgetSpent] = unplaced.length;
  const parts = shares.map((s) => ({
    request: {
      ...request,
      name: `${request.name} via ${s.dialer}${s.from !== undefined ? ` from ${periodLabel(s.from)}` : ""}`,
      dialer: s.dialer,
      dialerNumber: s.number,
      ...(s.from !== undefined ? { budgetFrom: s.from } : {}),
    },
    phones: s.phones,
    matched: s.matched,
  }));
  return { parts, skipped, resting: [...resting.values()] };
}

/** "2026-11-30" for a day, "2026-11-30T14h" for an hour. */
const periodLabel = (t: number) => {
  const iso = new Date(t).toISOString();
  return iso.slice(11, 13) === "00" ? iso.slice(0, 10) : `${iso.slice(0, 13)}h`;
};

/** A campaign's dialer as summaries and the preview show it: the operator's number, whole. */
export interface CampaignDialer {
  name: string;
  number: string;
  matched: Record<string, number>;
}

/** The `dialer` a part's campaign reports, when it has a pool dialer. */
export function dialerReport(part: DialerPart): { dialer?: CampaignDialer } {
  const r = part.request;
  if (!r.dialer || !r.dialerNumber || !part.matched) return {};
  return { dialer: { name: r.dialer, number: r.dialerNumber, matched: part.matched } };
}

/** Adds `more`'s counts into `into`. */
export function addCounts(into: Record<string, number>, more: Readonly<Record<string, number>>): void {
  for (const [k, n] of Object.entries(more)) into[k] = (into[k] ?? 0) + n;
}
