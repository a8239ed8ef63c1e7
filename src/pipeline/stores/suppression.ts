import { chunksOf } from "../../lib/chunks.ts";
import type { RedisClient } from "../../lib/redis.ts";
import type { RedisKeys } from "../../lib/redis-keys.ts";
import {
  createDoNotCallLists,
  type DoNotCallLists,
  type DoNotCallListsOptions,
} from "./dnc/do-not-call-lists.ts";

/**
 * Phones no campaign may call: those that opted out (a Redis set of E.164 numbers: no later import
 * of any job sends them again) and those on a do-not-call list in force (vcw suppress import).
 */
export interface SuppressionList {
  add(phones: readonly string[]): Promise<number>;
  remove(phones: readonly string[]): Promise<number>;
  /** Which of `phones` are suppressed: opted out or on a do-not-call list. */
  which(phones: readonly string[]): Promise<Set<string>>;
  /** Which of `phones` opted out. */
  optedOut(phones: readonly string[]): Promise<Set<string>>;
  /** Which of `phones` a do-not-call list holds, each with the list's source. */
  doNotCall(phones: readonly string[]): Promise<Map<string, string>>;
  /** The opted-out phones. */
  list(): Promise<string[]>;
  readonly lists: DoNotCallLists;
}

export function createSuppressionList(
  redis: RedisClient,
  keys: RedisKeys,
  o: DoNotCallListsOptions = {},
): SuppressionList {
  const key = keys.suppressed;
  const lists = createDoNotCallLists(redis, keys, o);
  const optedOut = async (phones: readonly string[]) => {
    const out = new Set<string>();
    for (const part of chunksOf(phones)) {
      const flags = await redis.smismember(key, ...part);
      for (const [i, phone] of part.entries()) if (flags[i] === 1) out.add(phone);
    }
    return out;
  };
  /** One command per 1,000 numbers: a long list spread into one call overflows the stack (review of 46). */
  const each = async (phones: readonly string[], command: (part: string[]) => Promise<number>) => {
    let n = 0;
    for (const part of chunksOf(phones)) n += await command(part);
    return n;
  };
  return {
    add: (phones) => each(phones, (part) => redis.sadd(key, ...part)),
    remove: (phones) => each(phones, (part) => redis.srem(key, ...part)),
    async which(phones) {
      const [out, listed] = await Promise.all([optedOut(phones), lists.which(phones)]);
      for (const phone of listed.keys()) out.add(phone);
      return out;
    },
    optedOut,
    doNotCall: (phones) => lists.which(phones),
    list: async () => (await redis.smembers(key)).sort(),
    lists,
  };
}
