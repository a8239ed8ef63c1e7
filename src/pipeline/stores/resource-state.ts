import type { ResourceKind } from "../../config/resource-definition.ts";
import { type Locked, withLock } from "../../lib/lock.ts";
import type { RedisClient } from "../../lib/redis.ts";
import type { RedisKeys } from "../../lib/redis-keys.ts";
import { PermanentError } from "../errors.ts";
import { type AppliedResource, stateField } from "../model/resources.ts";

const TEST_DAY_SECONDS = 3 * 86_400;

/**
 * What `vcw apply` applied, in one Redis hash, so every daemon resolves the same version; which
 * campaign uses which version; and each job's test call of the day (preflight.ts).
 */
export function createResourceState(redis: RedisClient, keys: RedisKeys) {
  return {
    /** Runs `work` as the one apply under way (waits for another's to end). */
    exclusive: <T>(ttlMs: number, work: () => Promise<T>): Promise<Locked<T>> =>
      withLock(redis, keys.resourcesLock, { ttlMs }, work),
    /** Remembers that the campaign of `campaignKey` is made with record `id` (an assistant version). */
    recordUse: (campaignKey: string, id: string, now: number) =>
      redis.hset(keys.resourceUses, campaignKey, JSON.stringify({ id, at: now })),
    /** Each campaign key's recorded use: the record's id and when. */
    async uses(): Promise<[string, { id: string; at: number }][]> {
      return Object.entries(await redis.hgetall(keys.resourceUses)).map(([key, raw]) => [
        key,
        JSON.parse(raw) as { id: string; at: number },
      ]);
    },
    forgetUse: (campaignKey: string) => redis.hdel(keys.resourceUses, campaignKey),
    /** Takes `job`'s test call of `day` (UTC): true once, for one worker, however often asked. */
    takeTestDay: async (job: string, day: string, now: number) =>
      (await redis.set(keys.preflightDay(job, day), String(now), "EX", TEST_DAY_SECONDS, "NX")) === "OK",
    /** Keeps a job's last test call (its record, numbers masked), for the overview. */
    notePreflight: (job: string, record: object) => redis.hset(keys.preflights, job, JSON.stringify(record)),
    /** The last test call of each job, as kept. */
    preflights: async () => Object.values(await redis.hgetall(keys.preflights)),
    /** The phone number of dialer resource `name` as applied (a pool matches callees to it). */
    async dialerNumber(name: string): Promise<string> {
      const raw = await redis.hget(keys.resources, stateField("dialer", name));
      const number = raw ? (JSON.parse(raw) as AppliedResource).spec.phone_number : undefined;
      if (typeof number !== "string")
        throw new PermanentError(
          `no dialer resource "${name}" has been applied`,
          "declare it in resources/ and run vcw apply",
        );
      return number;
    },
    async all(): Promise<Map<string, AppliedResource>> {
      const h = await redis.hgetall(keys.resources);
      return new Map(Object.entries(h).map(([f, v]) => [f, JSON.parse(v) as AppliedResource]));
    },
    put: (s: AppliedResource) => redis.hset(keys.resources, stateField(s.kind, s.name), JSON.stringify(s)),
    remove: (kind: ResourceKind, name: string) => redis.hdel(keys.resources, stateField(kind, name)),
    /** The id of the current version of a resource, or a clear error when it was never applied. */
    async currentId(kind: ResourceKind, name: string): Promise<string> {
      const raw = await redis.hget(keys.resources, stateField(kind, name));
      const id = raw ? (JSON.parse(raw) as AppliedResource).id : undefined;
      if (!id)
        throw new PermanentError(
          `no ${kind} resource "${name}" has been applied`,
          "declare it in resources/ and run vcw apply",
        );
      return id;
    },
  };
}

export type ResourceState = ReturnType<typeof createResourceState>;
