import type { DialerMatch } from "../../config/dialer-pool-definition.ts";
import { locateCallee } from "./callee-location.ts";

/** A pool's dialer as matching sees it: its name and number, and where the number is. */
export interface PoolNumber {
  name: string;
  /** The dialer's own phone number (the operator's: shown whole). */
  number: string;
}

/** Where a number is by its own digits: area code (North America), state or province, zones. */
interface NumberPlace {
  areaCode?: string;
  region?: string;
  zones: readonly string[];
}

/** A candidate dialer for a callee, and why it fits: "area code 415", "state NY", "zone America/New_York", "any". */
export interface DialerChoice {
  name: string;
  number: string;
  match: DialerMatch;
  why: string;
}

/** The number's place: local presence is about the number the callee sees beside their own. */
export function placeOfNumber(e164: string): NumberPlace {
  const where = locateCallee(e164);
  const areaCode = e164.startsWith("+1") && e164.length === 12 ? e164.slice(2, 5) : undefined;
  return {
    ...(areaCode ? { areaCode } : {}),
    ...(where.region ? { region: where.region } : {}),
    zones: where.zones,
  };
}

/** Why `dialer` fits `callee` at level `m`, or undefined when it does not. */
function fits(m: DialerMatch, callee: NumberPlace, dialer: NumberPlace): string | undefined {
  if (m === "any") return "any";
  if (m === "areaCode")
    return callee.areaCode && callee.areaCode === dialer.areaCode
      ? `area code ${callee.areaCode}`
      : undefined;
  if (m === "state")
    return callee.region && callee.region === dialer.region ? `state ${callee.region}` : undefined;
  const zone = callee.zones.find((z) => dialer.zones.includes(z));
  return zone ? `zone ${zone}` : undefined;
}

/**
 * Every dialer of the pool that fits a callee, best first: by the job's match order, then pool
 * order; each dialer once, at its best level. Empty: no listed match reaches the callee. Pure.
 */
export function rankDialers(
  callee: string,
  pool: readonly PoolNumber[],
  match: readonly DialerMatch[],
  places: ReadonlyMap<string, NumberPlace> = placesOf(pool),
): DialerChoice[] {
  const here = placeOfNumber(callee);
  const ranked: DialerChoice[] = [];
  const seen = new Set<string>();
  for (const m of match)
    for (const d of pool) {
      if (seen.has(d.name)) continue;
      const why = fits(m, here, places.get(d.name)!);
      if (why === undefined) continue;
      seen.add(d.name);
      ranked.push({ name: d.name, number: d.number, match: m, why });
    }
  return ranked;
}

/** Each pool dialer's place, read once per plan. */
export const placesOf = (pool: readonly PoolNumber[]): Map<string, NumberPlace> =>
  new Map(pool.map((d) => [d.name, placeOfNumber(d.number)]));
