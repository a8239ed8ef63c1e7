import { counted } from "../../lib/plural.ts";
import { zonedDate, zonedTime } from "../../lib/zoned-time.ts";
import type { ReportPeriod } from "./model.ts";

/** The reports' one vocabulary: numbers, shares, lengths of time and the names of periods. Pure. */
export const num = (n: number) => n.toLocaleString("en-US");
export const pct = (share: number) => `${Math.round(share * 1000) / 10}%`;

const UNIT_NOUNS: Record<string, string> = { m: "minute", h: "hour", d: "day", w: "week" };

/** `7d` as words, "7 days"; `24h` "24 hours"; anything else as given. */
export function durationWords(text: string): string {
  const m = /^(\d+(?:\.\d+)?)\s*([mhdw])$/.exec(text.trim());
  return m ? counted(Number(m[1]), UNIT_NOUNS[m[2]!]!) : text;
}

const monthName = (at: number, zone: string) =>
  new Intl.DateTimeFormat("en-US", { timeZone: zone, month: "long", year: "numeric" }).format(at);
const midnight = (at: number, zone: string) => zonedTime(at, zone).includes(" 00:00 ");

/**
 * What a period is called in titles: "the last 7 days", "the day of 2026-11-25", "the week of
 * 2026-11-19 to 2026-11-25", "the month of November 2026"; a scheduled period that does not start
 * at a local midnight is named by its end ("the day to 2026-11-25 08:00 PST").
 */
export function periodName(p: ReportPeriod): string {
  const from = Date.parse(p.from);
  const to = Date.parse(p.to);
  const last = zonedDate(to - 1, p.timezone);
  const aligned = midnight(from, p.timezone) && midnight(to, p.timezone);
  switch (p.label) {
    case "day":
      return aligned
        ? `the day of ${zonedDate(from, p.timezone)}`
        : `the day to ${zonedTime(to, p.timezone)}`;
    case "week":
      return aligned
        ? `the week of ${zonedDate(from, p.timezone)} to ${last}`
        : `the week to ${zonedTime(to, p.timezone)}`;
    case "month":
      return aligned &&
        zonedDate(from, p.timezone).endsWith("-01") &&
        zonedDate(to, p.timezone).endsWith("-01")
        ? `the month of ${monthName(from, p.timezone)}`
        : `the month to ${zonedTime(to, p.timezone)}`;
    case "since-last":
      return `the time since the last report (${zonedTime(from, p.timezone)})`;
    default:
      return p.label.startsWith("last ") ? `the ${p.label}` : p.label;
  }
}

/** A period's span with its zone: "2026-11-20 08:00 PST – 2026-11-21 08:00 PST (America/Los_Angeles)"; UTC once. */
export const periodText = (p: ReportPeriod) =>
  `${zonedTime(p.from, p.timezone)} – ${zonedTime(p.to, p.timezone)}${p.timezone === "UTC" ? "" : ` (${p.timezone})`}`;
