import type { ResourceKind } from "../../config/resource-definition.ts";
import type { RedisClient } from "../../lib/redis.ts";
import type { RedisKeys } from "../../lib/redis-keys.ts";
import { PermanentError } from "../errors.ts";
import { type AppliedResource, stateField } from "./model.ts";

/** What `vcw apply` applied, in one Redis hash, so every daemon resolves the same version. */
export function createResourceState(redis: RedisClient, keys: RedisKeys) {
  return {
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
