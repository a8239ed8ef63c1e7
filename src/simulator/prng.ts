/** Seeded pseudo-random numbers, so that a simulation is the same every time for the same seed. */

/** A 32-bit hash of a string (FNV-1a). */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: uniform numbers in [0, 1) from a 32-bit seed. */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A random source for one named thing, independent of the order in which things are asked for. */
export const randomFor = (seed: number, ...key: string[]) => createRandom(hash32(`${seed}:${key.join(":")}`));

/** An integer in [min, max]. */
export const between = (random: () => number, min: number, max: number) =>
  min + Math.floor(random() * (max - min + 1));

/** Picks a key of `weights` with probability proportional to its weight. */
export function pickWeighted<K extends string>(random: () => number, weights: Record<K, number>): K {
  const entries = Object.entries(weights) as [K, number][];
  const total = entries.reduce((sum, [, w]) => sum + w, 0);
  let roll = random() * total;
  for (const [key, weight] of entries) {
    roll -= weight;
    if (roll < 0) return key;
  }
  return entries[entries.length - 1]![0];
}
