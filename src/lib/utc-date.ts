/** The start of a calendar day (epoch ms, UTC), or undefined when it is no day (2026-02-30, month 13). Pure. */
export function utcDay(year: number, month: number, day: number): number | undefined {
  const at = Date.UTC(year, month - 1, day);
  const back = new Date(at);
  return back.getUTCFullYear() === year && back.getUTCMonth() === month - 1 && back.getUTCDate() === day
    ? at
    : undefined;
}

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?\s*(Z|[+-]\d{2}:?\d{2})?)?$/i;

/**
 * An ISO 8601 date (`2026-11-29`) or date-time (`2026-11-29T14:00`, `…:05.123Z`, `…+01:00`) as
 * epoch ms, a date-time without an offset read as UTC; undefined for anything else, or a day, hour,
 * minute or offset that does not exist (no overflow into the next month). Pure.
 */
export function parseIsoUtc(text: string): { at: number; dateOnly: boolean } | undefined {
  const m = ISO.exec(text.trim());
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s = "0", frac = "", offset] = m;
  const day = utcDay(Number(y), Number(mo), Number(d));
  if (day === undefined) return undefined;
  if (h === undefined) return { at: day, dateOnly: true };
  const [hour, minute, second] = [Number(h), Number(mi), Number(s)];
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  let shift = 0;
  if (offset && offset.toUpperCase() !== "Z") {
    const digits = offset.replace(":", "");
    const [oh, om] = [Number(digits.slice(1, 3)), Number(digits.slice(3, 5))];
    if (oh > 23 || om > 59) return undefined;
    shift = (offset.startsWith("-") ? -1 : 1) * (oh * 60 + om) * 60_000;
  }
  const ms = Number(frac.padEnd(3, "0").slice(0, 3));
  return { at: day + ((hour * 60 + minute) * 60 + second) * 1000 + ms - shift, dateOnly: false };
}
