/** Why a valid contact is not called: in the error report, the summary and the report. */
export const SKIP_REASONS = {
  optedOut: "opted_out",
  recentlyCalled: "recently_called",
  frequencyCap: "frequency_cap",
  outsideHours: "outside_hours",
  callByPassed: "call_by_passed",
} as const;

export type SkipReason = (typeof SKIP_REASONS)[keyof typeof SKIP_REASONS];
