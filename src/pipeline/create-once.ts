import { AmbiguousWriteError } from "../api/errors/index.ts";
import { withLock } from "../lib/lock.ts";
import type { RedisClient } from "../lib/redis.ts";
import { PermanentError } from "./errors.ts";

export interface CreateOnceSpec {
  /** Redis key that remembers the record's id. */
  memo: string;
  /** Its lock's key. */
  lock: string;
  /** How long the lock holds after its holder died: longer than any create still in flight. */
  lockMs: number;
  /** The record's id found by its unique name, if it exists. */
  find: () => Promise<string | undefined>;
  /** Creates it; the answer may lack an id, or be lost (AmbiguousWriteError). */
  create: () => Promise<string | undefined>;
  /** The message when it can be neither created nor found. */
  missing: string;
}

/**
 * Creates a record once across retries, crashes and workers, without idempotency keys: its id is
 * remembered in Redis; creation happens under a lock; the unique name is looked up before creating
 * and after an ambiguous create or an answer without id.
 */
export async function createOnce(
  redis: RedisClient,
  spec: CreateOnceSpec,
): Promise<{ id: string; created: boolean }> {
  const remembered = await redis.get(spec.memo);
  if (remembered) return { id: remembered, created: false };
  const locked = await withLock(redis, spec.lock, { ttlMs: spec.lockMs }, async () => {
    const again = await redis.get(spec.memo);
    if (again) return { id: again, created: false };
    let id = await spec.find();
    let created = false;
    if (!id) {
      try {
        id = await spec.create();
      } catch (error) {
        if (!(error instanceof AmbiguousWriteError)) throw error;
      }
      id ??= await spec.find();
      if (!id)
        throw new PermanentError(
          spec.missing,
          "the service neither returned its id nor lists it by name (docs/spec-gaps.md)",
        );
      created = true;
    }
    await redis.set(spec.memo, id);
    return { id, created };
  });
  if (!locked.acquired) throw new Error(`lock ${spec.lock} not acquired`); // waits, so never
  return locked.value;
}

/** The id of the one record among `matches` (those bearing `name`), undefined if none; more is an error. */
export function idByName(
  matches: readonly { id?: string | undefined }[],
  what: string,
  name: string,
  hint = "",
): string | undefined {
  if (matches.length > 1)
    throw new PermanentError(`${matches.length} ${what}s are named "${name}"`, hint || undefined);
  if (matches.length === 1 && !matches[0]!.id) {
    throw new PermanentError(`the service lists ${what} "${name}" without an id`, hint || undefined);
  }
  return matches[0]?.id;
}
