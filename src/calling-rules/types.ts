import type { Weekday } from "../lib/time-zone.ts";

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

/** Local hours when calls are allowed, on some days, but a holiday calendar's. */
export interface HoursWindow {
  from: string;
  to: string;
  /** Days it allows; absent: every day. */
  days?: readonly Weekday[];
  /** A holiday calendar (rules/holiday-calendars.ts) on whose days it allows no call. */
  holidays?: string;
}

/**
 * Local hours at the callee's location when calls are allowed; `or`: other windows that allow
 * calls too (Rhode Island: weekdays 9-6, Saturdays 10-5). `timezone`: a fixed zone the hours are
 * read in instead (Mississippi's "Central Standard Time").
 */
export interface HoursRule extends HoursWindow {
  or?: readonly HoursWindow[];
  timezone?: string;
  source: RuleSource;
}

/** A date a holiday falls on: fixed, the n-th (-1: last) weekday (0: Sunday) of a month, or from Easter. */
export type DateRule = (
  | { month: number; day: number }
  | { month: number; weekday: number; nth: number }
  | { easter: number }
) & {
  /** Days after the date the rule gives (election day: the Tuesday after the first Monday). */
  plusDays?: number;
  /** Only in even years (general elections). */
  evenYears?: boolean;
  /**
   * Also observed on another day: the Friday before a Saturday and the Monday after a Sunday
   * (`friday-monday`), the Monday after either (`monday`), or the Monday of its week, the next one
   * for a weekend (`nearest-monday`: Utah's Juneteenth).
   */
  observed?: "friday-monday" | "monday" | "nearest-monday";
};

/** A holiday calendar: its days, and the law that names them. */
export interface HolidayCalendar {
  name: string;
  days: readonly { name: string; rule: DateRule }[];
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
  /** Region code (a US state: "FL", a Canadian province: "ON") -> its own rules, on top of the national ones. */
  regions: Readonly<Record<string, RuleScope>>;
  /**
   * The set's own region resolver: its region code for a region as the callee's location names it
   * when that is not already a key of `regions` ("Florida" -> "FL"); absent: the set has regions
   * by code only, or none. A function, so not part of the data the audit trail digests.
   */
  regionOf?: (region: string) => string | undefined;
  /** What vcw does where the source leaves a gap. */
  notes: readonly string[];
}

/**
 * A rule set's folder (`rules/<id>/index.ts`), as the registry (`rules/index.ts`) lists it: its rules
 * (the data, with their sources), and what the job files, the warnings and the calendars read of it.
 */
export interface RuleSetFolder {
  rules: RuleSet;
  /** Shown after its id in the job schema's description of `calling.rules`: "federal hours, state overrides". */
  summary?: string;
  /** Why it sets no calling hours, when it sets none (`vcw jobs check` says so): "no UK statute does". */
  withoutHours?: string;
  /** The holiday calendars its hours name (`HoursWindow.holidays`), by id. */
  calendars?: Readonly<Record<string, HolidayCalendar>>;
}
