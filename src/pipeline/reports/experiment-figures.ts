import type { ExperimentMetric } from "../../config/variant-definition.ts";
import { round4, wilson } from "./experiment-stats.ts";
import { compareVariants, experimentSummary } from "./experiment-verdict.ts";
import type { CallFact } from "./figures.ts";
import type { RateInterval, ReportModel, ReportVariant } from "./model.ts";

const REACHED = 1;
const MEETING = 2;
const TRANSFER = 4;
const OPTED_OUT = 8;

interface Running {
  /** Phone -> what happened to that contact (the bits above), over all its calls. */
  contacts: Map<string, number>;
  calls: number;
  talkSec: number;
  sentiment: Record<string, number>;
  /** Its campaigns never made, their contacts (never called), and why. */
  notMade: { campaigns: number; contacts: number; reasons: string[] };
}

const running = (): Running => ({
  contacts: new Map(),
  calls: 0,
  talkSec: 0,
  sentiment: {},
  notMade: { campaigns: 0, contacts: 0, reasons: [] },
});

/**
 * An experiment's figures, fed call by call with each call's variant: per contact (a contact is
 * reached if any of its calls was), since a contact, not a call, is what is assigned.
 */
export class ExperimentFigures {
  private readonly running = new Map<string, Running>();

  constructor(
    variants: readonly string[],
    private readonly metric: ExperimentMetric,
    private readonly reached: ReadonlySet<string>,
    private readonly optedOut: ReadonlySet<string>,
  ) {
    for (const v of variants) this.running.set(v, running());
  }

  /** A variant's figures so far; a variant dropped from the job since counts under its name. */
  private of(variant: string): Running {
    let r = this.running.get(variant);
    if (!r) {
      r = running();
      this.running.set(variant, r);
    }
    return r;
  }

  /** A campaign of `variant` never made: its contacts were given the variant and not called. */
  addNotMade(variant: string, contacts: number, reason: string): void {
    const r = this.of(variant);
    r.notMade.campaigns += 1;
    r.notMade.contacts += contacts;
    if (!r.notMade.reasons.includes(reason)) r.notMade.reasons.push(reason);
  }

  addCall(variant: string, c: CallFact): void {
    const r = this.of(variant);
    const bits =
      (this.reached.has(c.status) ? REACHED : 0) |
      (c.meeting ? MEETING : 0) |
      (c.transferred ? TRANSFER : 0) |
      (this.optedOut.has(c.status) ? OPTED_OUT : 0);
    r.contacts.set(c.phone, (r.contacts.get(c.phone) ?? 0) | bits);
    r.calls += 1;
    r.talkSec += c.durationSec;
    if (c.sentiment) r.sentiment[c.sentiment] = (r.sentiment[c.sentiment] ?? 0) + 1;
  }

  finish(): Pick<ReportModel, "variants" | "experiment"> {
    const variants = [...this.running].map(([name, r]) => variantOf(name, r));
    const [first, ...rest] = variants;
    if (!first) return {};
    for (const v of rest) v.versus = compareVariants(v, first, this.metric);
    return {
      variants,
      experiment: { metric: this.metric, summary: experimentSummary(variants, this.metric) },
    };
  }
}

function variantOf(name: string, r: Running): ReportVariant {
  const n = r.contacts.size;
  const count = (bit: number) => {
    let k = 0;
    for (const bits of r.contacts.values()) if (bits & bit) k += 1;
    return k;
  };
  const share = (k: number): RateInterval => {
    const w = wilson(k, n);
    return { rate: round4(w.value), low: round4(w.low), high: round4(w.high) };
  };
  const [reached, meetings, transfers, optedOut] = [REACHED, MEETING, TRANSFER, OPTED_OUT].map(count) as [
    number,
    number,
    number,
    number,
  ];
  return {
    name,
    contactsCalled: n,
    calls: r.calls,
    reached,
    reachedRate: share(reached),
    meetings,
    meetingRate: share(meetings),
    transfers,
    transferRate: share(transfers),
    optedOut,
    optOutRate: share(optedOut),
    talkTime: { totalSec: Math.round(r.talkSec), perContactSec: n > 0 ? Math.round(r.talkSec / n) : 0 },
    sentiment: r.sentiment,
    ...(r.notMade.campaigns > 0 ? { notMade: { ...r.notMade, reasons: [...r.notMade.reasons] } } : {}),
  };
}
