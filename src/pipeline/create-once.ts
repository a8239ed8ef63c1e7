import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { Redis } from "ioredis";
import { AmbiguousWriteError, VcwError } from "../api/errors/index.ts";

export interface CreateOnceSpec {
  /** Redis key that remembers the record's id; its lock is `<memo>:lock`. */
  memo: string;
  /** How long the lock holds: longer than any create still in flight from a holder that died. */
  lockMs: number;
  /** The record's id found by its unique name, if it exists. */
  find: () => Promise<string | undefined>;
  /** Creates it; the answer may lack an id, or be lost (AmbiguousWriteError). */
  create: () => Promise<string | undefined>;
  /** The message when it can be neither created nor found. */
  missing: string;
}

const UNLOCK = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

/**
 * Creates a record once across retries, crashes and workers, without idempotency keys: its id is
 * remembered in Redis; creation happens under a lock; the unique name is looked up before creating
 * and after an ambiguous create or an answer without id.
 */
export async function createOnce(
  redis: Redis,
  spec: CreateOnceSpec,
): Promise<{ id: string; created: boolean }> {
  const remembered = await redis.get(spec.memo);
  if (remembered) return { id: remembered, created: false };
  const lock = `${spec.memo}:lock`;
  const token = randomBytes(8).toString("hex");
  while ((await redis.set(lock, token, "PX", spec.lockMs, "NX")) !== "OK") await sleep(50);
  try {
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
      if (!id) throw new VcwError(spec.missing);
      created = true;
    }
    await redis.set(spec.memo, id);
    return { id, created };
  } finally {
    await redis.eval(UNLOCK, 1, lock, token);
  }
}

/** The id of the one record among `matches` (those bearing `name`), undefined if none; more is an error. */
export function idByName(
  matches: readonly { id?: string | undefined }[],
  what: string,
  name: string,
  hint = "",
): string | undefined {
  if (matches.length > 1) throw new VcwError(`${matches.length} ${what}s are named "${name}"${hint}`);
  if (matches.length === 1 && !matches[0]!.id) {
    throw new VcwError(`The service lists ${what} "${name}" without an id${hint}`);
  }
  return matches[0]?.id;
}
