import type { JobDefinition } from "../../config/job-definition.ts";
import { HEALTH, type NumberTally, numberHealth } from "../calling/number-health.ts";
import { isFinalStatus } from "../model/campaign-totals.ts";
import type { CampaignStore } from "../stores/campaign-store.ts";
import type { NumberRests, RestFigures } from "../stores/number-rests.ts";

/** What a pool's health reads (the results polls keep) and where its rests are kept. */
export interface PoolHealthDeps {
  store: Pick<CampaignStore, "allOf" | "get" | "allRecords">;
  rests: Pick<NumberRests, "rest" | "resting">;
}

/**
 * The pool numbers resting now: those found unhealthy now (number-health.ts) over the job's
 * campaigns started within the window are rested for `HEALTH.restMs` first.
 */
export async function restingNumbers(
  def: JobDefinition,
  numbers: readonly string[],
  d: PoolHealthDeps,
  now: number,
): Promise<Map<string, RestFigures>> {
  const tallies = await talliesOf(def, numbers, d, now);
  for (const h of numberHealth(tallies))
    if (h.rest)
      await d.rests.rest({
        number: h.number,
        calls: h.calls,
        answerRate: h.answerRate,
        shortRate: h.shortRate,
        poolAnswerRate: h.poolAnswerRate,
        z: h.z ?? 0,
        since: now,
        until: now + HEALTH.restMs,
      });
  return d.rests.resting(numbers);
}

/** Each number's final calls, answered and short ones, from the job's campaigns in the window. */
async function talliesOf(
  def: JobDefinition,
  numbers: readonly string[],
  d: PoolHealthDeps,
  now: number,
): Promise<NumberTally[]> {
  const tallies = new Map(numbers.map((n) => [n, { number: n, calls: 0, answered: 0, short: 0 }]));
  const classes = def.polling.statuses;
  const reached = new Set(classes.reached);
  for (const id of await d.store.allOf(def.name)) {
    const info = (await d.store.get(id))?.info;
    const tally = info?.dialerNumber ? tallies.get(info.dialerNumber) : undefined;
    if (!tally || Date.parse(info!.scheduledAt) < now - HEALTH.windowMs) continue;
    for await (const r of d.store.allRecords(id)) {
      if (!isFinalStatus(r.status, classes)) continue;
      tally.calls += 1;
      if (!reached.has(r.status)) continue;
      tally.answered += 1;
      if (r.durationSec < HEALTH.shortSec) tally.short += 1;
    }
  }
  return [...tallies.values()];
}
