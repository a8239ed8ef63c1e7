import { createHash } from "node:crypto";
import { AmbiguousWriteError, OwnershipLostError } from "../api/errors/index.ts";
import type { SendFence } from "../api/send-fence.ts";
import type { RequestOptions } from "../api/transport.ts";
import { CreateCanceledError, CreateUnresolvedError, isPermanent, PermanentError } from "./errors.ts";
import type { MemoSlot } from "./stores/create-memo.ts";

export interface CreateOnceSpec {
  /** How long the lock holds after its holder died (renewed meanwhile, and at the send). */
  lockMs: number;
  /**
   * How long after its send a create whose answer was lost may still be applied: it is sent again
   * only when a lookup begun this long after its send doesn't find it. Default 60 s.
   */
  settleMs?: number;
  /** The record's id found by its unique name, if it exists. */
  find: () => Promise<string | undefined>;
  /**
   * Creates it, passing `send` to the client (its fence checks the lock at the moment the request
   * leaves; its idempotency key); the answer may lack an id, or be lost (AmbiguousWriteError).
   */
  create: (send: RequestOptions) => Promise<string | undefined>;
  /**
   * The name may be a record made outside vcw (an operator's segment): look it up before the first
   * create. Without it, only names vcw made unique are created, and looked up only when needed.
   */
  lookFirst?: boolean;
  /** Whether it may still be created (false: canceled). Asked under the lock, before sending. */
  mayCreate?: () => Promise<boolean>;
  /** What it is, for messages: `campaign "x"`. */
  what: string;
  /** Kept with the sent mark, for whoever finds the record later (a campaign's start as sent). */
  note?: string;
}

/** The default settle time (VCW_SETTLE_MS; reasoning in docs/operations.md). */
export const DEFAULT_SETTLE_MS = 60_000;

/**
 * Creates a record once across retries, crashes and workers, without idempotency keys: its id is
 * remembered in its slot (stores/create-memo.ts); creation happens under its lock; each create is marked sent before it goes.
 * The unique name is looked up only when a create may have been applied without its id being
 * remembered: a mark with no id (an attempt died, or the answer was lost or held no id). Such a
 * record is never forgotten: until the service lists it, or a lookup begun `settleMs` after its
 * send doesn't list it (it can no longer land), CreateUnresolvedError says "look again later".
 * The lock is checked, renewed and the send marked at the moment the create leaves (the fence).
 */
export async function createOnce(
  slot: MemoSlot,
  spec: CreateOnceSpec,
): Promise<{ id: string; created: boolean }> {
  const remembered = await slot.id();
  if (remembered) return { id: remembered, created: false };
  const locked = await slot.locked({ ttlMs: spec.lockMs }, async (lost, token) => {
    const again = await slot.id();
    if (again) return { id: again, created: false };
    const sent = await slot.sent();
    if (sent) {
      const listedAt = await slot.now();
      const id = await lookUp(spec, sent.at);
      if (id) return { id: await slot.remember(id), created: false };
      if (sent.answered) throw notListed(spec);
      if (listedAt - sent.at < (spec.settleMs ?? DEFAULT_SETTLE_MS))
        throw new CreateUnresolvedError(spec.what, sent.at);
      // Not listed by a lookup begun once it had settled: it can no longer land.
    } else if (spec.lookFirst) {
      const id = await spec.find();
      if (id) return { id: await slot.remember(id), created: false };
    }
    if (spec.mayCreate && !(await spec.mayCreate())) {
      await slot.clearSent();
      throw new CreateCanceledError(spec.what);
    }
    return {
      id: await slot.remember(await send(slot, spec, fenceOf(slot, spec, token), lost)),
      created: true,
    };
  });
  if (!locked.acquired) throw new Error(`lock of ${slot.name} not acquired`); // waits, so never
  return locked.value;
}

function fenceOf(slot: MemoSlot, spec: CreateOnceSpec, token: string): SendFence & { at?: number } {
  const fence: SendFence & { at?: number } = {
    async beforeSend() {
      const at = await slot.fence(token, spec.lockMs, spec.note);
      if (at === 0) throw new OwnershipLostError(spec.what, "taken");
      fence.at = at;
    },
  };
  return fence;
}

/** Sends the create, marked sent by its fence as it leaves; its id, from the answer or (when it may be applied) by name. */
async function send(
  slot: MemoSlot,
  spec: CreateOnceSpec,
  fence: SendFence & { at?: number },
  lost: AbortSignal,
): Promise<string> {
  let id: string | undefined;
  try {
    id = await spec.create({ fence, signal: lost, idempotencyKey: createKeyOf(slot.identity) });
  } catch (error) {
    // Anything but an ambiguous failure says the service did not apply it; a lost lock, that it wasn't sent.
    if (!(error instanceof AmbiguousWriteError)) {
      if (fence.at !== undefined && !(error instanceof OwnershipLostError) && !lost.aborted)
        await slot.clearSent();
      throw error;
    }
    const at = fence.at ?? Date.now();
    id = await lookUp(spec, at);
    if (!id) throw new CreateUnresolvedError(spec.what, at, { cause: error });
    return id;
  }
  const at = fence.at ?? Date.now();
  if (id) return id;
  await slot.markAnswered(at);
  id = await lookUp(spec, at);
  if (!id) throw notListed(spec);
  return id;
}

/** The create's idempotency key: its memo names the record uniquely. */
const createKeyOf = (memo: string) =>
  `vcw-create-${createHash("sha256").update(memo).digest("hex").slice(0, 32)}`;

/** The id by name; a lookup that fails for a reason a retry may cure is "look again later". */
async function lookUp(spec: CreateOnceSpec, sentAt: number): Promise<string | undefined> {
  try {
    return await spec.find();
  } catch (error) {
    if (isPermanent(error)) throw error;
    throw new CreateUnresolvedError(spec.what, sentAt, { cause: error });
  }
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
