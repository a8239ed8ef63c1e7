/**
 * Phone numbers are personal data: what the operator's surface shows keeps the country prefix and
 * the last two digits (`+14•••••••23`), enough to tell entries apart, not to call anyone.
 */
export function maskPhone(phone: string): string {
  const digits = phone.replace(/\D/g, "").length;
  if (digits < 5) return phone.replace(/\d/g, "•");
  let seen = 0;
  return phone.replace(/\d/g, (d) => {
    seen += 1;
    return seen <= 2 || seen > digits - 2 ? d : "•";
  });
}

/**
 * Every phone-like run in a free text (an error message, a CSV cell): `+` and 7 or more digits, or
 * 9 or more digits with the usual separators. Dates (2026-12-01) and short numbers stay.
 */
const PHONE_LIKE = /\+\d[\d ().-]{5,}\d|(?<![\w-])\(?\d(?:[\d ().-]{7,})\d(?![\w-])/g;
/** A date on its own (campaign names carry one): never a phone. */
const DATE = /^\d{4}-\d\d-\d\d$/;
/** A date and the hour of its time: the run stops at the time's colon ("2026-11-29 08:00"). */
const DATE_AND_HOUR = /^\d{4}-\d\d-\d\d[ T]\d{1,2}$/;

export function maskPhonesIn(text: string): string {
  return text.replace(PHONE_LIKE, (run: string, at: number) => {
    if (DATE.test(run) || (DATE_AND_HOUR.test(run) && text[at + run.length] === ":")) return run;
    return run.replace(/\D/g, "").length >= 7 ? maskPhone(run) : run;
  });
}

/** Every string in a value with its phone-like runs masked; numbers, keys and structure untouched. */
export function maskPhonesDeep<T>(value: T): T {
  if (typeof value === "string") return maskPhonesIn(value) as T;
  if (Array.isArray(value)) return value.map(maskPhonesDeep) as T;
  if (value && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskPhonesDeep(v)])) as T;
  return value;
}
