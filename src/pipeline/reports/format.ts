import { fileStamp } from "../../lib/zoned-time.ts";
import type { Change, ReportModel } from "./model.ts";
import { callReach, contactReach, REACH_LABELS, reachText } from "./reach.ts";
import { num, periodName } from "./words.ts";

export { num, pct, periodText } from "./words.ts";

/** Small text formatters every rendering shares. Pure. */

export function duration(sec: number): string {
  const s = Math.round(sec);
  if (s < 60) return `${s} s`;
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h > 0 ? `${h} h ${m} min` : `${m} min ${s % 60} s`;
}

/**
 * A headline's change from the previous period, as a whole phrase: a rate's change is in points, a
 * count's relative (or absolute from 0). A rate has no change when either period had no calls:
 * "+57 pts" from an empty period, or "-20 pts" to one, would be noise a manager reads as news.
 */
export function changeText(c: Change, isRate = false, previousEmpty = false, currentEmpty = false): string {
  if (isRate) {
    if (previousEmpty) return "no calls in the previous period";
    // A rate of no calls is no rate: "0% (-20 pts)" would read as a collapse.
    if (currentEmpty) return "no calls in this period";
    const points = Math.round(c.delta * 1000) / 10;
    return points === 0
      ? "same as the previous period"
      : `${points > 0 ? "+" : ""}${points} pts vs the previous period`;
  }
  if (c.delta === 0) return "same as the previous period";
  if (c.ratio === null) return `+${num(c.delta)}; none in the previous period`;
  return `${c.delta > 0 ? "+" : ""}${Math.round(c.ratio * 1000) / 10}% vs the previous period`;
}

export const reportTitle = (r: ReportModel) =>
  `${r.job === "all" ? "All jobs" : `Job ${r.job}`}: report for ${periodName(r.period)}`;

/** The headline figures, in the order every rendering shows them. */
export function headlines(r: ReportModel): { label: string; value: string; change: string }[] {
  const t = r.totals;
  const previousEmpty = r.previous.totals.contactsCalled === 0;
  const currentEmpty = t.contactsCalled === 0;
  return [
    { label: "Contacts called", value: num(t.contactsCalled), change: changeText(r.change.contactsCalled) },
    { label: "Calls ended", value: num(t.calls), change: changeText(r.change.calls) },
    {
      label: REACH_LABELS.contact,
      value: reachText(contactReach(t)),
      change: changeText(r.change.contactReachRate ?? r.change.reachRate, true, previousEmpty, currentEmpty),
    },
    {
      label: REACH_LABELS.call,
      value: reachText(callReach(t)),
      change: changeText(r.change.reachRate, true, previousEmpty, currentEmpty),
    },
    { label: "Meetings", value: num(t.meetings), change: changeText(r.change.meetings) },
    { label: "Opted out", value: num(t.optedOut), change: changeText(r.change.optedOut) },
  ];
}

export const counts = (m: Record<string, number>) =>
  Object.entries(m)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([k, v]) => `${k} ${num(v)}`)
    .join(", ") || "none";

/** The name a report's files share: `<job>.<period>-<end, UTC>`, e.g. `leads.day-20261120T1600Z`. */
export function reportFileBase(r: ReportModel): string {
  const label = r.period.label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
  return `${r.job}.${label}-${fileStamp(r.period.to)}`;
}
