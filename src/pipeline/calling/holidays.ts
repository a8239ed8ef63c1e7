import { HOLIDAY_CALENDARS } from "../../calling-rules/index.ts";
import type { DateRule } from "../../calling-rules/types.ts";

/**
 * Holiday calendars as data (each rule set's, rules/<id>/, each with its citation): a year's dates
 * from rules (a fixed date, the n-th or last weekday of a month, a day from Easter), with the days
 * a fixed date is observed on when it falls on a weekend. A constraint naming a calendar allows no
 * call on its days, by the callee's local date. Pure.
 */

const DAY = 86_400_000;

/** Easter Sunday of a year (the Gregorian computus, Meeus/Jones/Butcher), as UTC midnight. */
export function easterOf(year: number): number {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return Date.UTC(year, month - 1, day);
}

/** The dates (UTC midnights) a rule gives in a year: the day itself and the days it is observed on. */
export function datesOf(rule: DateRule, year: number): number[] {
  if (rule.evenYears && year % 2 !== 0) return [];
  let date: number;
  if ("easter" in rule) date = easterOf(year) + rule.easter * DAY;
  else if ("day" in rule) date = Date.UTC(year, rule.month - 1, rule.day);
  else if (rule.nth > 0) {
    const first = new Date(Date.UTC(year, rule.month - 1, 1)).getUTCDay();
    date = Date.UTC(year, rule.month - 1, 1 + ((rule.weekday - first + 7) % 7) + 7 * (rule.nth - 1));
  } else {
    const last = new Date(Date.UTC(year, rule.month, 0));
    date = Date.UTC(year, rule.month - 1, last.getUTCDate() - ((last.getUTCDay() - rule.weekday + 7) % 7));
  }
  date += (rule.plusDays ?? 0) * DAY;
  const shift = rule.observed ? observedShift(rule.observed, new Date(date).getUTCDay()) : 0;
  return shift !== 0 ? [date, date + shift * DAY] : [date];
}

/** Days from a holiday's date to the day it is also observed on (0: none). */
function observedShift(mode: NonNullable<DateRule["observed"]>, weekday: number): number {
  const weekend = weekday === 0 || weekday === 6;
  switch (mode) {
    case "friday-monday":
      return weekday === 6 ? -1 : weekday === 0 ? 1 : 0;
    case "monday":
      return weekday === 6 ? 2 : weekday === 0 ? 1 : 0;
    case "nearest-monday":
      return weekend ? (weekday === 6 ? 2 : 1) : 1 - weekday;
  }
}

const years = new Map<string, Set<number>>();

/** Whether the local date `wallDay` (midnight of a wall-clock day, as UTC ms) is a holiday of `id`. */
export function isHoliday(id: string, wallDay: number): boolean {
  const calendar = HOLIDAY_CALENDARS[id];
  if (!calendar) throw new Error(`unknown holiday calendar "${id}"`);
  const year = new Date(wallDay).getUTCFullYear();
  const key = `${id}|${year}`;
  let dates = years.get(key);
  if (!dates) {
    // Next year's January 1 may be observed on this year's December 31.
    dates = new Set([year, year + 1].flatMap((y) => calendar.days.flatMap(({ rule }) => datesOf(rule, y))));
    years.set(key, dates);
  }
  return dates.has(wallDay);
}
