import { AmbiguousWriteError } from "../api/errors/index.ts";
import { withLock } from "../lib/lock.ts";
import type { RedisClient } from "../lib/redis.ts";
import { CreateCanceledError, CreateUnresolvedError, isPermanent, PermanentError } from "./errors.ts";

export interface CreateOnceSpec {
  /** Redis key that remembers the record's id. */
  memo: string;
  /** Where a create is marked sent before it goes (same hash tag as `memo`). */
  sent: string;
  /** Its lock's key. */
  lock: string;
  /**
   * How long the lock holds after its holder died: longer than any create still in flight. A create
   * sent this long ago and still not listed was not applied.
   */
  lockMs: number;
  /** The record's id found by its unique name, if it exists. */
  find: () => Promise<string | undefined>;
  /** Creates it; the answer may lack an id, or be lost (AmbiguousWriteError). */
  create: () => Promise<string | undefined>;
  /**
   * The name may be a record made outside vcw (an operator's segment): look it up before the first
   * create. Without it, only names vcw made unique are created, and looked up only when needed.
   */
  lookFirst?: boolean;
  /** Whether it may still be created (false: canceled). Asked under the lock, before sending. */
  mayCreate?: () => Promise<boolean>;
  /** What it is, for messages: `campaign "x"`. */
  what: string;
  now?: () => number;
}

/** A create marked sent: when, and whether the service answered yes (without an id). */
interface Sent {
  at: number;
  answered?: boolean;
}

/**
 * Creates a record once across retries, crashes and workers, without idempotency keys: its id is
 * remembered in Redis; creation happens under a lock; each create is marked sent before it goes.
 * The unique name is looked up only when a create may have been applied without its id being
 * remembered: a mark with no id (an attempt died, or the answer was lost or held no id). Such a
 * record is never forgotten: until the service lists it, or the create is old enough to be sure
 * it was not applied, CreateUnresolvedError says "look again later".
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
    const sent = await readSent(redis, spec.sent);
    if (sent) {
      const id = await lookUp(spec, sent.at);
      if (id) return { id: await remember(redis, spec, id), created: false };
      if (sent.answered) throw notListed(spec);
      const now = (spec.now ?? Date.now)();
      if (now - sent.at < spec.lockMs) throw new CreateUnresolvedError(spec.what, sent.at);
      // Sent long ago and still not listed: it was not applied.
    } else if (spec.lookFirst) {
      const id = await spec.find();
      if (id) return { id: await remember(redis, spec, id), created: false };
    }
    if (spec.mayCreate && !(await spec.mayCreate())) {
      await redis.del(spec.sent);
      throw new CreateCanceledError(spec.what);
    }
    return { id: await remember(redis, spec, await send(redis, spec)), created: true };
  });
  if (!locked.acquired) throw new Error(`lock ${spec.lock} not acquired`); // waits, so never
  return locked.value;
}

/** Sends the create, marked sent first; its id, from the answer or (when it may be applied) by name. */
async function send(redis: RedisClient, spec: CreateOnceSpec): Promise<string> {
  const at = (spec.now ?? Date.now)();
  await redis.set(spec.sent, JSON.stringify({ at } satisfies Sent));
  let id: string | undefined;
  try {
    id = await spec.create();
  } catch (error) {
    // Anything but an ambiguous failure says the service did not apply it.
    if (!(error instanceof AmbiguousWriteError)) {
      await redis.del(spec.sent);
      throw error;
    }
    id = await lookUp(spec, at);
    if (!id) throw new CreateUnresolvedError(spec.what, at, { cause: error });
    return id;
  }
  if (id) return id;
  await redis.set(spec.sent, JSON.stringify({ at, answered: true } satisfies Sent));
  id = await lookUp(spec, at);
  if (!id) throw notListed(spec);
  return id;
}

/** The id by name; a lookup that fails for a reason a retry may cure is "look again later". */
async function lookUp(spec: CreateOnceSpec, sentAt: number): Promise<string | undefined> {
  try {
    return await spec.find();
  } catch (error) {
    if (isPermanent(error)) throw error;
    throw new CreateUnresolvedError(spec.what, sentAt, { cause: error });
  }
}

async function remember(redis: RedisClient, spec: CreateOnceSpec, id: string): Promise<string> {
  await redis.set(spec.memo, id);
  return id;
}

async function readSent(redis: RedisClient, key: string): Promise<Sent | undefined> {
  const text = await redis.get(key);
  return text ? (JSON.parse(text) as Sent) : undefined;
}

const notListed = (spec: CreateOnceSpec) =>
  new PermanentError(
    `${spec.what} could not be created or found`,
    "the service answered its create without an id and doesn't list it by name (docs/spec-gaps.md)",
  );

/**
 * When to look up again a record whose create is unresolved: about as long as it has been since
 * it was sent (so the waits double), from 2 s, never more than 5 minutes. Pure.
 */
export function lookAgainAfterMs(sentAt: number, now: number): number {
  return Math.min(300_000, Math.max(2_000, now - sentAt));
}

/** Whether a record was created (its id), may have been (a create sent, no id remembered), or not. */
export async function createState(
  redis: RedisClient,
  keys: { memo: string; sent: string },
): Promise<{ kind: "exists"; id: string } | { kind: "may-exist" } | { kind: "none" }> {
  const [id, sent] = await Promise.all([redis.get(keys.memo), redis.get(keys.sent)]);
  if (id) return { kind: "exists", id };
  return sent ? { kind: "may-exist" } : { kind: "none" };
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
