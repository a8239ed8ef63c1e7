import { CALLEE, type JobDefinition } from "./job-definition.ts";

/**
 * The zone times are read in, for a campaign, a report or a job: `own` when given (a campaign's
 * callees' zone, a report's `timezone`); else the job's calling window's zone, with `timezone:
 * callee` calling.location.fallbackTimezone; else `fallback`. The one answer for the dashboard, the CLI,
 * reports and their scheduler.
 */
export function zoneOf(def: JobDefinition | undefined, own?: string, fallback = "UTC"): string {
  if (own) return own;
  const start = def?.campaign?.start;
  if (typeof start !== "object" || !("window" in start)) return fallback;
  const w = start.window;
  return w.timezone === CALLEE ? (def?.calling.location.fallbackTimezone ?? fallback) : w.timezone;
}
