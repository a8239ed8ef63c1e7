import { counted, plural } from "../../lib/plural.ts";
import { countIn } from "../../lib/tally.ts";
import { rate } from "./figures.ts";
import type { ReportTotals } from "./model.ts";
import { num, pct } from "./words.ts";

/**
 * What "reached" means, one definition for every output (dashboard, `vcw report`, the page, the
 * e-mail, Slack, `vcw campaigns`): per contact, the distinct numbers with a call that ended in a
 * reached status, of the numbers called; per call, the calls that ended so, of the calls that
 * ended. A contact called by a campaign and its follow-up is one contact and two calls.
 */
export interface Reach {
  reached: number;
  of: number;
  /** reached / of, 0..1 (0 when of is 0). */
  rate: number;
  unit: "contact" | "call";
}

export const REACH_LABELS = { contact: "Reached", call: "Reached per call" } as const;

export const reachOf = (reached: number, of: number, unit: Reach["unit"]): Reach => ({
  reached,
  of,
  rate: rate(reached, of),
  unit,
});

/** Per contact; reports queued by versions before it counted calls only, and say so. */
export function contactReach(t: ReportTotals): Reach {
  return reachOf(t.contactsReached ?? t.reached, t.contactsCalled, "contact");
}

export const callReach = (t: ReportTotals): Reach => reachOf(t.reached, t.calls, "call");

/** "2 of 6 contacts (33.3%)"; with none called, "no contacts called" (a rate of nothing is no 0%). */
export const reachText = (r: Reach) =>
  r.of === 0
    ? `no ${plural(r.unit, 0)} ${r.unit === "contact" ? "called" : "ended"}`
    : `${num(r.reached)} of ${counted(r.of, r.unit)} (${pct(r.rate)})`;

/** As a clause: "reached 2 of 6 contacts (33.3%)"; with none called, "no contacts called" ("reached no contacts called" said it wrong). */
export const reachedClause = (r: Reach) => (r.of === 0 ? reachText(r) : `reached ${reachText(r)}`);

/** The definitions as a footnote: which statuses, and the two bases. */
export const reachDefinition = (statuses: readonly string[]) =>
  `Reached: a contact with a call that ended in ${statuses.join(", ")}, of the contacts called; per call: the calls that ended so, of the calls that ended.`;

/** A kept campaign's reach over its life, as every page shows it: the count and the sentence. */
export function campaignReach(
  byStatus: Readonly<Record<string, number>>,
  contacts: number,
  reached: readonly string[],
): { reached: number; reach: string } {
  const n = reached.reduce((sum, status) => sum + countIn(byStatus, status), 0);
  return { reached: n, reach: reachText(reachOf(n, contacts, "contact")) };
}
