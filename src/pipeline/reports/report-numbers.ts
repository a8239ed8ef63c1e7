import { rate } from "./figures.ts";
import { num, pct } from "./format.ts";
import type { ReportCampaign, ReportNumber } from "./model.ts";

/** Each caller number's campaigns and figures, from the campaigns of a pool (none: undefined). Pure. */
export function numbersOf(campaigns: readonly ReportCampaign[]): ReportNumber[] | undefined {
  const by = new Map<string, ReportNumber>();
  for (const c of campaigns) {
    if (!c.callerNumber) continue;
    const n = by.get(c.callerNumber) ?? {
      number: c.callerNumber,
      campaigns: 0,
      contacts: 0,
      reached: 0,
      reachRate: 0,
      callsInPeriod: 0,
    };
    by.set(c.callerNumber, n);
    n.campaigns += 1;
    n.contacts += c.contacts;
    n.reached += c.reached;
    n.callsInPeriod += c.callsInPeriod;
    n.reachRate = rate(n.reached, n.contacts);
  }
  return by.size > 0 ? [...by.values()].sort((a, b) => a.number.localeCompare(b.number)) : undefined;
}

/** The report's text lines of its caller numbers (the operator's own: whole). */
export function numberLines(numbers: readonly ReportNumber[] | undefined): string[] {
  if (!numbers) return [];
  return [
    "",
    `Caller numbers (${num(numbers.length)}):`,
    ...numbers.map(
      (n) =>
        `- ${n.number}: ${num(n.contacts)} contacts in ${num(n.campaigns)} campaigns, reached ${num(n.reached)} (${pct(n.reachRate)}), ${num(n.callsInPeriod)} calls in the period`,
    ),
  ];
}
