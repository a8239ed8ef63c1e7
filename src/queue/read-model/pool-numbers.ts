import { poolDialerName } from "../../config/dialer-pool-definition.ts";
import type { JobDefinition } from "../../config/job-definition.ts";
import type { DialerBudgets } from "../../pipeline/stores/dialer-budget.ts";
import type { NumberRests, RestFigures } from "../../pipeline/stores/number-rests.ts";
import type { ResourceState } from "../../pipeline/stores/resource-state.ts";

/** One pool number of a job as the operator sees it: its calls today and this hour, budgets, rest. */
export interface PoolNumberView {
  job: string;
  dialer: string;
  /** The dialer's own number (the operator's: whole); null when its resource was never applied. */
  number: string | null;
  today: number;
  thisHour: number;
  perDay: number | null;
  perHour: number | null;
  /** Resting: why (its answer rate against the pool's) and until when. */
  resting?: RestFigures;
}

/** What the pool view reads: the numbers applied, the budgets' counts, the rests. */
export interface PoolNumberSources {
  resources: Pick<ResourceState, "dialerNumber">;
  budgets: Pick<DialerBudgets, "used">;
  rests: Pick<NumberRests, "resting">;
}

/** Every pool number of every job with `campaign.dialers`, in job and pool order. */
export async function poolNumberViews(
  defs: readonly JobDefinition[],
  src: PoolNumberSources,
  now: number,
): Promise<PoolNumberView[]> {
  const views: PoolNumberView[] = [];
  for (const def of defs) {
    const pool = def.campaign?.dialers;
    if (!pool) continue;
    for (const d of pool.pool) {
      const number =
        "resource" in d ? await src.resources.dialerNumber(d.resource).catch(() => null) : d.number;
      const used = number ? await src.budgets.used(number, now) : { day: 0, hour: 0 };
      const resting = number ? (await src.rests.resting([number])).get(number) : undefined;
      views.push({
        job: def.name,
        dialer: poolDialerName(d),
        number,
        today: used.day,
        thisHour: used.hour,
        perDay: pool.perNumber?.perDay ?? null,
        perHour: pool.perNumber?.perHour ?? null,
        ...(resting ? { resting } : {}),
      });
    }
  }
  return views;
}

/** "sf-line +14152000100: 12 calls today (of 100), 3 this hour; RESTING until ..., answered 5% against the pool's 55% (z -6.1, 40 calls)". */
export function poolNumberLine(v: PoolNumberView): string {
  const budget = (n: number, of: number | null) => (of === null ? `${n}` : `${n} (of ${of})`);
  const base = `job ${v.job} dialer ${v.dialer} ${v.number ?? "(not applied)"}: ${budget(v.today, v.perDay)} calls today, ${budget(v.thisHour, v.perHour)} this hour`;
  const r = v.resting;
  if (!r) return base;
  const pct = (x: number) => `${Math.round(x * 100)}%`;
  return `${base}; RESTING until ${new Date(r.until).toISOString()}: answered ${pct(r.answerRate)} against the pool's ${pct(r.poolAnswerRate)} (z ${r.z.toFixed(1)}, ${r.calls} calls, ${pct(r.shortRate)} short)`;
}
