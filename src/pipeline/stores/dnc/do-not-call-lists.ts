import { isCluster, type RedisClient } from "../../../lib/redis.ts";
import type { RedisKeys } from "../../../lib/redis-keys.ts";
import { blockHas } from "./block-codec.ts";
import { DoNotCallLookupError } from "./errors.ts";
import { DoNotCallList, isExpired } from "./list-facts.ts";
import { blockName, placeOf } from "./number-block.ts";
import { retireVersion } from "./retire-version.ts";
import { TreeShapes, treeHolds } from "./tree-lookup.ts";

export interface DoNotCallListsOptions {
  /** How long the lists in force are remembered between lookups (a new import is seen this late). */
  cacheMs?: number;
  now?: () => number;
  /** An expired list was consulted: said at most once an hour per list. */
  onExpired?: (list: DoNotCallList) => void;
}

/** The do-not-call lists in force (vcw suppress import): which numbers they hold, and their facts. */
export interface DoNotCallLists {
  /** Which of `phones` (E.164) a list holds, each with the list's source. */
  which(phones: readonly string[]): Promise<Map<string, string>>;
  lists(): Promise<DoNotCallList[]>;
  /** Takes a source's list out of force and deletes it; false when there was none. */
  remove(source: string): Promise<boolean>;
}

const WARN_EVERY_MS = 3_600_000;
const ATTEMPTS = 5;

export function createDoNotCallLists(
  redis: RedisClient,
  keys: RedisKeys,
  o: DoNotCallListsOptions = {},
): DoNotCallLists {
  const now = o.now ?? Date.now;
  let cached: { at: number; lists: DoNotCallList[] } | undefined;
  const shapes = new TreeShapes();
  const warned = new Map<string, number>();

  async function lists(fresh = true): Promise<DoNotCallList[]> {
    if (!fresh && cached && now() - cached.at < (o.cacheMs ?? 1_000)) return cached.lists;
    const all = await redis.hgetall(keys.dncLists);
    const parsed = Object.keys(all)
      .sort()
      .map((source) => DoNotCallList.parse(JSON.parse(all[source]!)));
    cached = { at: now(), lists: parsed };
    return parsed;
  }

  function warnExpired(list: DoNotCallList) {
    if (!o.onExpired || !isExpired(list, now())) return;
    const last = warned.get(list.version);
    if (last !== undefined && now() - last < WARN_EVERY_MS) return;
    warned.set(list.version, now());
    o.onExpired(list);
  }

  return {
    async which(phones) {
      for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
        const inForce = await lists(attempt > 0);
        if (inForce.length === 0 || phones.length === 0) return new Map();
        const reading = lookUp(redis, keys, inForce, phones, shapes);
        reading.catch(() => undefined); // awaited below; not unhandled if the check fails first
        // Read after the blocks: a version still indexed then was whole while they were read (a
        // replaced one loses its index before any of its blocks goes). One connection to one
        // Redis answers in order, so the check can go out at once; a Cluster's nodes don't.
        if (isCluster(redis)) await reading;
        const alive = await Promise.all(inForce.map((l) => redis.exists(keys.dncBlocks(l.version))));
        const found = await reading;
        if (alive.every((n) => n === 1)) {
          for (const list of inForce) warnExpired(list);
          return found;
        }
      }
      throw new DoNotCallLookupError(
        `the do-not-call lists were replaced ${ATTEMPTS} times during one lookup: try again`,
      );
    },
    lists: () => lists(true),
    async remove(source) {
      const raw = await redis.hget(keys.dncLists, source);
      if (raw === null) return false;
      const list = DoNotCallList.parse(JSON.parse(raw));
      await redis.multi().hdel(keys.dncLists, source).hset(keys.dncRetired, list.version, now()).exec();
      cached = undefined;
      await retireVersion(redis, keys, list.version);
      return true;
    },
  };
}

/**
 * Which list holds each phone (the first in order that does): each list read by its layout, all
 * sent at once before anything is awaited.
 */
function lookUp(
  redis: RedisClient,
  keys: RedisKeys,
  lists: readonly DoNotCallList[],
  phones: readonly string[],
  shapes: TreeShapes,
): Promise<Map<string, string>> {
  const reads = lists.map((list) =>
    list.layout === "tree"
      ? treeHolds(redis, keys, list.version, phones, shapes)
      : blocksHold(redis, keys, list.version, phones),
  );
  return Promise.all(reads).then((held) => {
    const found = new Map<string, string>();
    held.forEach((phonesHeld, i) => {
      for (const phone of phonesHeld) if (!found.has(phone)) found.set(phone, lists[i]!.source);
    });
    return found;
  });
}

/**
 * A version laid out in blocks of 10,000 (imported before the tree layout): each block the phones
 * fall in read once, one MGET per hash tag (a tag's blocks share a slot).
 */
async function blocksHold(
  redis: RedisClient,
  keys: RedisKeys,
  version: string,
  phones: readonly string[],
): Promise<Set<string>> {
  const places = phones.map((phone) => ({ phone, place: placeOf(phone) }));
  const byTag = new Map<string, Set<string>>();
  for (const { place } of places)
    if (place) byTag.set(place.tag, (byTag.get(place.tag) ?? new Set()).add(place.block));
  const tags = await Promise.all(
    [...byTag].map(async ([tag, names]) => {
      const wanted = [...names];
      const values = await redis.mgetBuffer(...wanted.map((b) => keys.dncBlock(version, tag, b)));
      return wanted.map((b, i) => [blockName({ tag, block: b }), values[i] ?? null] as const);
    }),
  );
  const blocks = new Map(tags.flat());
  const found = new Set<string>();
  for (const { phone, place } of places) {
    const stored = place ? blocks.get(blockName(place)) : undefined;
    if (place && stored && blockHas(stored, place.suffix)) found.add(phone);
  }
  return found;
}
