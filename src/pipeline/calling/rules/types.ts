import type { Weekday } from "../../../lib/time-zone.ts";

/** Where a rule comes from: a citation an operator can check, and when it was read. */
export interface RuleSource {
  /** The law or policy, as it is cited: "47 CFR 64.1200(c)(1)". */
  cite: string;
  url: string;
  /** When vcw's authors read it (YYYY-MM-DD). */
  read: string;
  /** Statute (binding) or guidance (a regulator's policy or an industry practice). */
  kind: "law" | "guidance";
}

/** Local hours at the callee's location when calls are allowed, on some days. */
export interface HoursRule {
  from: string;
  to: string;
  /** Days it allows; absent: every day. */
  days?: readonly Weekday[];
  /** A holiday calendar (holidays.ts) on whose days it allows no call. */
  holidays?: string;
  source: RuleSource;
}

/** At most `calls` calls to one number in any rolling `perHours` hours. */
export interface CapRule {
  calls: number;
  perHours: number;
  source: RuleSource;
}

/** A country's or a region's rules: each applies on top of the others (they only narrow). */
export interface RuleScope {
  name: string;
  /** A region's zones: where its rules apply to a callee who may be anywhere (toll-free). */
  zones?: readonly string[];
  hours: readonly HoursRule[];
  caps: readonly CapRule[];
}

/** A rule set a job names (`calling.rules`): rules for callees in one country, by region. */
export interface RuleSet {
  id: string;
  /** ISO 3166 countries its callees are in (the number's), or "*" for every callee. */
  countries: readonly string[];
  national: RuleScope;
  /** Region code (a US state: "FL") -> its own rules, applied on top of the national ones. */
  regions: Readonly<Record<string, RuleScope>>;
  /** What vcw does where the source leaves a gap. */
  notes: readonly string[];
}
