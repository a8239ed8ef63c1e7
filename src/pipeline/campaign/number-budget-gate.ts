import type { JobDefinition } from "../../config/job-definition.ts";
import { poolOf } from "../calling/dialer-pool.ts";
import type { DialerBudgets } from "../stores/dialer-budget.ts";
import { type CampaignRequest, campaignKey } from "./lifecycle.ts";

/**
 * Whether one more call of a follow-up or hand-back may go on its pool number (`campaign.dialers.
 * perNumber`) in the period of `at`: a call granted from that number's budget, as a planned
 * campaign's are, so a number's budget holds for every call it makes, never only the first. The
 * grant is named by the campaign and the phone: a retry is given the same answer. Without a pool
 * number or budget: always.
 */
export function numberBudgetGate(
  def: JobDefinition,
  request: CampaignRequest,
  budgets: Pick<DialerBudgets, "grant"> | undefined,
): (phone: string, at: number) => Promise<boolean> {
  const budget = poolOf(def)?.perNumber;
  const number = request.dialerNumber;
  if (!budgets || !budget || !number || (budget.perDay === undefined && budget.perHour === undefined))
    return async () => true;
  const key = campaignKey(request);
  return async (phone, at) => (await budgets.grant(number, `${key}|${phone}`, 1, at, budget)) === 1;
}
