import type { ExperimentMetric } from "../../config/variant-definition.ts";
import { addTo, newTally, type Tally } from "../../lib/tally.ts";
import type { CampaignInfo } from "../model/results.ts";
import { assignmentKey } from "../variant-assignment.ts";
import type { GuardrailArm } from "./experiment-guardrail.ts";
import { type MissingFacts, missingByVariant } from "./experiment-missing.ts";
import { round4, wilson } from "./experiment-stats.ts";
import type { CallFact } from "./figures.ts";
import type { RateInterval, ReportVariant } from "./model.ts";

const REACHED = 1;
const MEETING = 2;
const TRANSFER = 4;
const OPTED_OUT = 8;

/** One contact over the experiment: its first variant, when it was first planned, what happened over all its calls. */
interface Person {
  variant: string;
  /** Its first campaign's planned start (epoch ms): before or after a decision. */
  at: number;
  bits: number;
  talkSec: number;
  calls: number;
  /** Its first campaign's assignment key, and a second variant it was called under. */
  family: string;
  other?: string;
}

/** What the experiment is, as the figures need it. */
export interface ExperimentSetup {
  variants: readonly { name: string; share: number }[];
  metric: ExperimentMetric;
  reached: ReadonlySet<string>;
  optedOut: ReadonlySet<string>;
  /** The decisions so far: after one, comparisons with its variant stop at its time. */
  decisions: readonly { variant: string; at: number }[];
}

/** One campaign of the experiment, and the calls of it that ended. */
export interface ExperimentCampaign {
  info: CampaignInfo;
  /** Why vcw stopped it, when it did (stores/stop-store.ts). */
  stopReasons?: readonly string[] | undefined;
  /** Contacts its check before the start took out (opted out, do-not-call). */
  withdrawnAtStart?: number | undefined;
  calls: Iterable<CallFact>;
}

/** A variant's counts over some of its contacts: what the comparisons read. */
export interface ArmFigures extends GuardrailArm {
  transfers: number;
  talk: { n: number; sum: number; squares: number };
}

/**
 * An experiment's figures, fed campaign by campaign: per contact (a contact is reached if any of
 * its calls was, follow-ups too), since a contact, not a call, is what is assigned; a contact
 * keeps the variant it was first called under (the intention to treat), one called under two is
 * counted. The comparisons' counts stop at a decision about either variant (the concurrent time).
 */
export class ExperimentFigures {
  private readonly people = new Map<string, Person>();
  private readonly callsOf = new Map<string, number>();
  private readonly sentiment = new Map<string, Tally>();
  private readonly facts: MissingFacts = new Map();
  private readonly notMade = new Map<string, { campaigns: number; contacts: number; reasons: string[] }>();
  /** Counts already made, by their cut-off: every comparison of a section reads the same few. */
  private readonly counted = new Map<number, Map<string, ArmFigures>>();

  constructor(private readonly setup: ExperimentSetup) {}

  addCampaign(c: ExperimentCampaign): void {
    const variant = c.info.variant;
    if (!variant) return;
    this.counted.clear();
    const at = Date.parse(c.info.scheduledAt);
    const family = assignmentKey(c.info);
    const f = this.facts.get(family) ?? { variant, audience: 0, called: 0, active: false, stops: new Set() };
    if (c.info.attempt === 0 && !c.info.resumeOf && !c.info.repair) f.audience += c.info.audience ?? 0;
    f.active ||= c.info.state === "active";
    for (const r of c.stopReasons ?? []) f.stops.add(r);
    f.withdrawnAtStart = (f.withdrawnAtStart ?? 0) + (c.withdrawnAtStart ?? 0);
    this.facts.set(family, f);
    const sentiment = this.sentiment.get(variant) ?? newTally();
    this.sentiment.set(variant, sentiment);
    for (const call of c.calls) {
      const bits =
        (this.setup.reached.has(call.status) ? REACHED : 0) |
        (call.meeting ? MEETING : 0) |
        (call.transferred ? TRANSFER : 0) |
        (this.setup.optedOut.has(call.status) ? OPTED_OUT : 0);
      let p = this.people.get(call.phone);
      if (!p) {
        p = { variant, at, bits: 0, talkSec: 0, calls: 0, family };
        this.people.set(call.phone, p);
      } else if (at < p.at && p.variant !== variant) {
        // Seen first under a later campaign: the earlier one's variant is the one it was given.
        p.other = p.variant;
        [p.variant, p.at, p.family] = [variant, at, family];
      } else if (p.variant !== variant) p.other = variant;
      p.at = Math.min(p.at, at);
      p.bits |= bits;
      p.talkSec += call.durationSec;
      p.calls += 1;
      this.callsOf.set(variant, (this.callsOf.get(variant) ?? 0) + 1);
      if (call.sentiment) addTo(sentiment, call.sentiment);
    }
  }

  /** A campaign of `variant` never made (refused or failed): its contacts were given the variant and not called. */
  addNotMade(variant: string, contacts: number, reason: string): void {
    const n = this.notMade.get(variant) ?? { campaigns: 0, contacts: 0, reasons: [] };
    n.campaigns += 1;
    n.contacts += contacts;
    if (!n.reasons.includes(reason)) n.reasons.push(reason);
    this.notMade.set(variant, n);
  }

  /** When each variant stopped being compared: its decision's time. */
  private closedAt(variant: string): number {
    return this.setup.decisions.find((d) => d.variant === variant)?.at ?? Number.POSITIVE_INFINITY;
  }

  /** Each variant's counts over its contacts planned before `until` (all: Infinity). Read only. */
  arms(until = Number.POSITIVE_INFINITY): Map<string, ArmFigures> {
    const done = this.counted.get(until);
    if (done) return done;
    const total = this.setup.variants.reduce((s, v) => s + v.share, 0);
    const arms = new Map<string, ArmFigures>(
      this.names().map((name) => [
        name,
        {
          name,
          share: (this.setup.variants.find((v) => v.name === name)?.share ?? 0) / total,
          contacts: 0,
          metric: 0,
          optedOut: 0,
          transfers: 0,
          talk: { n: 0, sum: 0, squares: 0 },
        },
      ]),
    );
    const bit = { reached: REACHED, meetings: MEETING, transfers: TRANSFER }[this.setup.metric];
    for (const p of this.people.values()) {
      if (p.at >= until) continue;
      const a = arms.get(p.variant)!;
      a.contacts += 1;
      if (p.bits & bit) a.metric += 1;
      if (p.bits & OPTED_OUT) a.optedOut += 1;
      if (p.bits & TRANSFER) a.transfers += 1;
      a.talk.n += 1;
      a.talk.sum += p.talkSec;
      a.talk.squares += p.talkSec * p.talkSec;
    }
    this.counted.set(until, arms);
    return arms;
  }

  /** Two variants' counts over the time both were open: up to the first decision about either. */
  concurrent(a: string, b: string): [ArmFigures, ArmFigures] {
    const until = Math.min(this.closedAt(a), this.closedAt(b));
    const arms = this.arms(until);
    return [arms.get(a)!, arms.get(b)!];
  }

  /** The variants: the job's, then any dropped from it since that still has calls. */
  names(): string[] {
    const names = this.setup.variants.map((v) => v.name);
    for (const p of this.people.values()) if (!names.includes(p.variant)) names.push(p.variant);
    return names;
  }

  /** Each contact called and the variant it was first called under. */
  *firstVariants(): Iterable<[string, string]> {
    for (const [phone, p] of this.people) yield [phone, p.variant];
  }

  /** Contacts called under two variants. */
  exposedToTwo(): number {
    let n = 0;
    for (const p of this.people.values()) if (p.other !== undefined) n += 1;
    return n;
  }

  /** Contacts called per assignment key: the missing are the rest of each planned campaign. */
  missingFacts(): MissingFacts {
    for (const f of this.facts.values()) f.called = 0;
    for (const p of this.people.values()) {
      const f = this.facts.get(p.family);
      if (f) f.called += 1;
    }
    return this.facts;
  }

  /** Each variant's figures over all its contacts, rates with Wilson's fixed 95% intervals (the estimate's, not a decision's). */
  variants(assignments?: Parameters<typeof missingByVariant>[1]): ReportVariant[] {
    const arms = this.arms();
    const missing = assignments ? missingByVariant(this.missingFacts(), assignments) : undefined;
    return this.names().map((name) => {
      const a = arms.get(name)!;
      const n = a.contacts;
      const share = (k: number): RateInterval => {
        const w = wilson(k, n);
        return { rate: round4(w.value), low: round4(w.low), high: round4(w.high) };
      };
      let meetings = 0;
      let reached = 0;
      for (const p of this.people.values())
        if (p.variant === name) {
          if (p.bits & MEETING) meetings += 1;
          if (p.bits & REACHED) reached += 1;
        }
      const m = missing?.get(name);
      const notMade = this.notMade.get(name);
      return {
        name,
        contactsCalled: n,
        calls: this.callsOf.get(name) ?? 0,
        reached,
        reachedRate: share(reached),
        meetings,
        meetingRate: share(meetings),
        transfers: a.transfers,
        transferRate: share(a.transfers),
        optedOut: a.optedOut,
        optOutRate: share(a.optedOut),
        talkTime: { totalSec: Math.round(a.talk.sum), perContactSec: n > 0 ? Math.round(a.talk.sum / n) : 0 },
        sentiment: this.sentiment.get(name) ?? newTally(),
        share: round4(a.share),
        ...(m ? { assigned: m.assigned, missing: m.reasons } : {}),
        ...(notMade ? { notMade: { ...notMade, reasons: [...notMade.reasons] } } : {}),
      };
    });
  }
}
