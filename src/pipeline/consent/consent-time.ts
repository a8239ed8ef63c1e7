import { utcDay } from "../../lib/utc-date.ts";

/**
 * A consent or revocation time as lead exports write it: ISO 8601, US month/day/year with an
 * optional time and AM/PM, or epoch seconds or milliseconds. A time without a zone is read as UTC
 * (an export names none; the audit keeps the cell as written beside it). Pure.
 */
export function parseConsentTime(cell: string): number | undefined {
  const text = cell.trim();
  if (/^\d{10}$/.test(text)) return Number(text) * 1000;
  if (/^\d{13}$/.test(text)) return Number(text);
  const iso = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  if (iso) {
    // Date.parse reads 2025-02-30 as 2025-03-02: a day that does not exist is no time.
    if (utcDay(Number(iso[1]), Number(iso[2]), Number(iso[3])) === undefined) return undefined;
    const zoned = /(Z|[+-]\d{2}:?\d{2})$/i.test(text);
    const t = text.replace(" ", "T");
    const at = Date.parse(zoned || t.length === 10 ? t : `${t}Z`);
    return Number.isFinite(at) ? at : undefined;
  }
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:[ T]+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*(am|pm)?)?$/i.exec(text);
  if (!us) return undefined;
  const [, month, day, year, hour = "0", minute = "0", second = "0", half] = us;
  let h = Number(hour);
  if (half && h > 12) return undefined;
  if (half?.toLowerCase() === "pm" && h < 12) h += 12;
  if (half?.toLowerCase() === "am" && h === 12) h = 0;
  const start = utcDay(Number(year), Number(month), Number(day));
  if (start === undefined || h > 23 || Number(minute) > 59 || Number(second) > 59) return undefined;
  return start + ((h * 60 + Number(minute)) * 60 + Number(second)) * 1000;
}
