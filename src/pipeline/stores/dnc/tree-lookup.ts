import type { RedisClient } from "../../../lib/redis.ts";
import type { RedisKeys } from "../../../lib/redis-keys.ts";
import { blockHas } from "./block-codec.ts";
import { spanHas } from "./span-codec.ts";
import { DEEPEST, NODES, nodeOf, pathOfNode, spanAt, treePlaceOf } from "./tree-place.ts";

const LEAF = 1;
const EMPTY = 2;

/**
 * What lookups learned of versions' shapes, per tag a byte per node: a leaf, or a block of 10^4
 * with no leaf on its way (no number listed there). A version never changes once in force, so
 * this never goes stale; it only saves asking for the four candidate nodes again. Bounded: cleared
 * when it holds `maxTags` tags (1,111 bytes each).
 */
export class TreeShapes {
  private readonly tags = new Map<string, Uint8Array>();
  constructor(private readonly maxTags = 20_000) {}

  of(version: string, tag: string): Uint8Array {
    const key = `${version}|${tag}`;
    let known = this.tags.get(key);
    if (!known) {
      if (this.tags.size >= this.maxTags) this.tags.clear();
      known = new Uint8Array(NODES);
      this.tags.set(key, known);
    }
    return known;
  }
}

/** Adds the nodes to read for a number: its known leaf, none (known empty), or its four candidates. */
function addWanted(known: Uint8Array, rest: number, to: Set<number>): void {
  for (let level = 0; level <= DEEPEST; level += 1) {
    const node = nodeOf(rest, level);
    if (known[node] === LEAF) {
      to.add(node);
      return;
    }
  }
  if (known[nodeOf(rest, DEEPEST)] === EMPTY) return;
  for (let level = 0; level <= DEEPEST; level += 1) to.add(nodeOf(rest, level));
}

/**
 * Which of `phones` a version laid out as trees holds: the nodes each number's leaf may be (four,
 * or the one `shapes` knows), read with one MGET per tag (a tag's keys share a Cluster slot), all
 * sent before anything is awaited; the one that exists says.
 */
export async function treeHolds(
  redis: RedisClient,
  keys: RedisKeys,
  version: string,
  phones: readonly string[],
  shapes: TreeShapes,
): Promise<Set<string>> {
  const places = phones.map((phone) => ({ phone, place: treePlaceOf(phone) }));
  const byTag = new Map<string, { known: Uint8Array; nodes: Set<number> }>();
  for (const { place } of places) {
    if (!place) continue;
    let entry = byTag.get(place.tag);
    if (!entry) {
      entry = { known: shapes.of(version, place.tag), nodes: new Set() };
      byTag.set(place.tag, entry);
    }
    addWanted(entry.known, place.rest, entry.nodes);
  }
  const read = await Promise.all(
    [...byTag].map(async ([tag, { nodes }]) => {
      const asked = [...nodes];
      const values =
        asked.length === 0
          ? []
          : await redis.mgetBuffer(...asked.map((node) => keys.dncBlock(version, tag, pathOfNode(node))));
      return [tag, new Map(asked.map((node, i) => [node, values[i] ?? null]))] as const;
    }),
  );
  const stored = new Map(read);
  const found = new Set<string>();
  for (const { phone, place } of places) {
    if (!place) continue;
    const values = stored.get(place.tag)!;
    const known = byTag.get(place.tag)!.known;
    let leaf = false;
    for (let level = 0; level <= DEEPEST; level += 1) {
      const node = nodeOf(place.rest, level);
      const value = values.get(node);
      if (!value) continue;
      leaf = true;
      known[node] = LEAF;
      const suffix = place.rest % spanAt(level);
      if (level === DEEPEST ? blockHas(value, suffix) : spanHas(value, suffix)) found.add(phone);
      break;
    }
    const deepest = nodeOf(place.rest, DEEPEST);
    if (!leaf && values.has(deepest)) known[deepest] = EMPTY;
  }
  return found;
}
