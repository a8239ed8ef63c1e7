/**
 * A consent or revocation time as lead exports write it: ISO 8601, US month/day/year with an
 * optional time and AM/PM, or epoch seconds or milliseconds. A time without a zone is read as UTC
 * (an export names none; the audit keeps the cell as written beside it). Pure.
 */
export function parseConsentTime(cell: string): number | undefined {
  const text = cell.trim();
  if (/^\d{10}$/.test(text)) return Number(text) * 1000;
  if (/^\d{13}$/.test(text)) return Number(text);
  if (/^\d{4}-\d{2}-\d{2}/.test(text)) {
    const zoned = /(Z|[+-]\d{2}:?\d{2})$/i.test(text);
    const iso = text.replace(" ", "T");
    const at = Date.parse(zoned || iso.length === 10 ? iso : `${iso}Z`);
    return Number.isFinite(at) ? at : undefined;
  }
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:[ T]+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*(am|pm)?)?$/i.exec(text);
  if (!us) return undefined;
  const [, month, day, year, hour = "0", minute = "0", second = "0", half] = us;
  let h = Number(hour);
  if (half && h > 12) return undefined;
  if (half?.toLowerCase() === "pm" && h < 12) h += 12;
  if (half?.toLowerCase() === "am" && h === 12) h = 0;
  const at = Date.UTC(Number(year), Number(month) - 1, Number(day), h, Number(minute), Number(second));
  const back = new Date(at);
  return back.getUTCMonth() === Number(month) - 1 && back.getUTCDate() === Number(day) ? at : undefined;
}
