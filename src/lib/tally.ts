/**
 * Counts by a name that comes from outside: a service's status, sentiment or error text, a file's
 * cell. A null-prototype object, so that no name ("constructor", "__proto__", "toString") meets
 * Object.prototype; still JSON, for what is stored and sent. Read one with `countIn`, whatever
 * made it (a spread or JSON.parse gives an ordinary object).
 */
export type Tally = Record<string, number>;

export const newTally = (): Tally => Object.create(null) as Tally;

/** A tally of the same counts as `from` (its own keys only): what a JSON.parse'd one is made into. */
export function tallyOf(from: Readonly<Record<string, number>> | undefined): Tally {
  const tally = newTally();
  if (from) for (const [key, n] of Object.entries(from)) tally[key] = n;
  return tally;
}

/** The count of `key`: its own, never a property `tally` inherits. */
export const countIn = (tally: Readonly<Record<string, number>>, key: string): number =>
  Object.hasOwn(tally, key) ? tally[key]! : 0;

/** Adds `by` to the count of `key` in a tally from `newTally` or `tallyOf`; a count of 0 is removed. */
export function addTo(tally: Tally, key: string, by = 1): void {
  const next = countIn(tally, key) + by;
  if (next === 0) delete tally[key];
  else tally[key] = next;
}
