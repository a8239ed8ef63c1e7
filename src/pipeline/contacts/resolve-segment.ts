import type { Client } from "../../api/client.ts";
import { createOnce, idByName } from "../create-once.ts";
import type { CreateMemo } from "../stores/create-memo.ts";

export type SegmentTarget = { id: string } | { name: string; description?: string | undefined };

export interface ResolvedSegment {
  id: string;
  /** True when this call created it. */
  created: boolean;
}

const HINT = "give the segment's id in the job";

/**
 * The id of a job's segment: given, remembered, or created (see createOnce). Creation happens
 * once across workers (a Redis lock), survives an ambiguous create (the name is looked up before
 * creating again), and copes with a service that returns no id (docs/spec-gaps.md).
 */
export async function resolveSegment(
  client: Client,
  memo: Pick<CreateMemo, "segment">,
  target: SegmentTarget,
  options: {
    lockMs?: number;
    /** See createOnce (the ledger's: 0 with idempotency keys). */
    settleMs?: number;
  } = {},
): Promise<ResolvedSegment> {
  if ("id" in target) return { id: target.id, created: false };
  const find = async () =>
    idByName(
      (await client.segments.list()).filter((s) => s.name === target.name),
      "segment",
      target.name,
      HINT,
    );
  return createOnce(memo.segment(target.name), {
    lockMs: options.lockMs ?? 30_000,
    ...(options.settleMs === undefined ? {} : { settleMs: options.settleMs }),
    find,
    create: async (send) =>
      (await client.segments.create({ name: target.name, description: target.description }, send)).id,
    what: `segment "${target.name}"`,
    // Looked for first, vcw's own names too: a memo lost with Redis' last writes is no proof of none.
    lookFirst: true,
  });
}

/** Forgets a remembered segment id the service no longer knows (404), so the next import looks again. */
export async function forgetSegment(
  memo: Pick<CreateMemo, "segment">,
  target: SegmentTarget,
  staleId: string,
): Promise<void> {
  if ("id" in target) return;
  await memo.segment(target.name).forget(staleId);
}
