import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { Redis } from "ioredis";
import type { Client } from "../api/client.ts";
import { AmbiguousWriteError, VcwError } from "../api/errors/index.ts";

export type SegmentTarget = { id: string } | { name: string; description?: string | undefined };

export interface ResolvedSegment {
  id: string;
  /** True when this call created it. */
  created: boolean;
}

const UNLOCK = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

/**
 * The id of a job's segment: given, remembered, found by its name, or created. Creation happens
 * once across workers (a Redis lock), survives an ambiguous create (the name is looked up before
 * creating again), and copes with a service that returns no id (docs/spec-gaps.md).
 */
export async function resolveSegment(
  client: Client,
  redis: Redis,
  target: SegmentTarget,
  options: { prefix?: string; lockMs?: number } = {},
): Promise<ResolvedSegment> {
  if ("id" in target) return { id: target.id, created: false };
  const prefix = options.prefix ?? "vcw";
  const memo = `${prefix}:segment-id:${target.name}`;
  const remembered = await redis.get(memo);
  if (remembered) return { id: remembered, created: false };

  const lock = `${prefix}:segment-lock:${target.name}`;
  const token = randomBytes(8).toString("hex");
  const lockMs = options.lockMs ?? 30_000;
  while ((await redis.set(lock, token, "PX", lockMs, "NX")) !== "OK") await sleep(50);
  try {
    const again = await redis.get(memo);
    if (again) return { id: again, created: false };
    let id = await findByName(client, target.name);
    let created = false;
    if (!id) {
      try {
        id = (await client.segments.create({ name: target.name, description: target.description })).id;
      } catch (error) {
        if (!(error instanceof AmbiguousWriteError)) throw error;
      }
      // No id in the answer, or no answer: the unique name tells which record it is.
      id ??= await findByName(client, target.name);
      if (!id)
        throw new VcwError(`Segment "${target.name}" could not be created or found; give its id in the job`);
      created = true;
    }
    await redis.set(memo, id);
    return { id, created };
  } finally {
    await redis.eval(UNLOCK, 1, lock, token);
  }
}

async function findByName(client: Client, name: string): Promise<string | undefined> {
  const matches = (await client.segments.list()).filter((s) => s.name === name);
  if (matches.length > 1) {
    throw new VcwError(`${matches.length} segments are named "${name}"; give the segment's id in the job`);
  }
  if (matches.length === 1 && !matches[0]!.id) {
    throw new VcwError(`The service lists segment "${name}" without an id; give the segment's id in the job`);
  }
  return matches[0]?.id;
}

/** Forgets a remembered segment id the service no longer knows (404), so the next import looks again. */
export async function forgetSegment(redis: Redis, target: SegmentTarget, staleId: string, prefix = "vcw") {
  if ("id" in target) return;
  const memo = `${prefix}:segment-id:${target.name}`;
  if ((await redis.get(memo)) === staleId) await redis.del(memo);
}
