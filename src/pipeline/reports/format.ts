import type { Change, ReportModel, ReportPeriod } from "./model.ts";

/** Small text formatters every rendering shares. Pure. */
export const num = (n: number) => n.toLocaleString("en-US");
export const pct = (share: number) => `${Math.round(share * 1000) / 10}%`;

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

/** A period as readable local times: "20 Nov 2026 08:00 – 21 Nov 2026 08:00 (America/Los_Angeles)". */
export function periodText(p: ReportPeriod): string {
  const f = new Intl.DateTimeFormat("en-GB", {
    timeZone: p.timezone,
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  });
  return `${f.format(new Date(p.from))} – ${f.format(new Date(p.to))} (${p.timezone})`;
}

export const reportTitle = (r: ReportModel) =>
  `${r.job === "all" ? "All jobs" : `Job ${r.job}`}: report for ${r.period.label}`;

/** The headline figures, in the order every rendering shows them. */
export function headlines(r: ReportModel): { label: string; value: string; change: string }[] {
  const t = r.totals;
  return [
    { label: "Contacts called", value: num(t.contactsCalled), change: changeText(r.change.contactsCalled) },
    { label: "Calls ended", value: num(t.calls), change: changeText(r.change.calls) },
    {
      label: "Reached",
      value: `${num(t.reached)} (${pct(t.reachRate)})`,
      change: changeText(
        r.change.reachRate,
        true,
        r.previous.totals.contactsCalled === 0,
        r.totals.contactsCalled === 0,
      ),
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

/** The name a report's files share: `<job>.<period>`, e.g. `leads.day-2026-11-20T0800`. */
export function reportFileBase(r: ReportModel): string {
  const wall = new Intl.DateTimeFormat("sv-SE", {
    timeZone: r.period.timezone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  })
    .format(new Date(r.period.to))
    .replace(" ", "T")
    .replaceAll(":", "")
    .replace(/00$/, ""); // seconds only when the cron has them
  const label = r.period.label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
  return `${r.job}.${label}-${wall}`;
}
