/** Why a valid contact is not called: in the error report, the summary and the report. */
export const SKIP_REASONS = {
  optedOut: "opted_out",
  recentlyCalled: "recently_called",
  frequencyCap: "frequency_cap",
  outsideHours: "outside_hours",
  callByPassed: "call_by_passed",
  noRuleSet: "no_rule_set",
  noDialerMatch: "no_dialer_match",
  dialerBudgetSpent: "dialer_budget_spent",
} as const;

export type SkipReason = (typeof SKIP_REASONS)[keyof typeof SKIP_REASONS];

/** What each reason means, for the error report's message column. */
export const SKIP_MESSAGES: Record<SkipReason, string> = {
  opted_out: "not called: the number opted out (or is on a do-not-call list)",
  recently_called: "not called: another campaign called it within calling.caps.recallAfterDays",
  frequency_cap: "not called: over a frequency cap (calling.caps or its rule set) in every opening planned",
  outside_hours: "not called: no opening of its calling window within calling.horizonDays",
  call_by_passed: "not called: no opening before calling.callBy",
  no_rule_set:
    "not called: no rule set of calling.rules covers the callee's country, and the campaign has no window in the callee's zone (add custom hours, or a window with timezone: callee)",
  no_dialer_match:
    "not called: no dialer of campaign.dialers.pool fits the number by the job's match list (add any to it)",
  dialer_budget_spent:
    "not called: every dialer it matches had spent campaign.dialers.perNumber for the next seven days",
};
