/**
 * Holiday calendars as data: rules that give a year's dates (a fixed date, the n-th or last
 * weekday of a month), each calendar with its citation (docs/compliance.md). A constraint naming a
 * calendar allows no call on its days, by the callee's local date. Pure.
 */
import type { RuleSource } from "./rules/types.ts";

type DateRule =
  | { month: number; day: number }
  /** The n-th (1-5) or last (-1) weekday (0 = Sunday) of a month. */
  | { month: number; weekday: number; nth: number };

export interface HolidayCalendar {
  id: string;
  name: string;
  days: readonly { name: string; rule: DateRule }[];
  source: RuleSource;
}

const calendars = new Map<string, HolidayCalendar>();

/** Registers calendars (the rule sets' data modules do, once). */
export function defineHolidays(...list: HolidayCalendar[]): void {
  for (const c of list) calendars.set(c.id, c);
}

export const holidayCalendar = (id: string) => calendars.get(id);

/** The day of month of a rule in a year (UTC date arithmetic on a wall-clock date). */
function dayOf(rule: DateRule, year: number): number {
  if ("day" in rule) return rule.day;
  if (rule.nth > 0) {
    const first = new Date(Date.UTC(year, rule.month - 1, 1)).getUTCDay();
    return 1 + ((rule.weekday - first + 7) % 7) + 7 * (rule.nth - 1);
  }
  const lastDay = new Date(Date.UTC(year, rule.month, 0));
  return lastDay.getUTCDate() - ((lastDay.getUTCDay() - rule.weekday + 7) % 7);
}

const years = new Map<string, Set<number>>();

/** Whether the local date `wallDay` (midnight of a wall-clock day, as UTC ms) is a holiday of `id`. */
export function isHoliday(id: string, wallDay: number): boolean {
  const calendar = calendars.get(id);
  if (!calendar) throw new Error(`unknown holiday calendar "${id}"`);
  const year = new Date(wallDay).getUTCFullYear();
  const key = `${id}|${year}`;
  let dates = years.get(key);
  if (!dates) {
    dates = new Set(calendar.days.map(({ rule }) => Date.UTC(year, rule.month - 1, dayOf(rule, year))));
    years.set(key, dates);
  }
  return dates.has(wallDay);
}
