import { createHash } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { Span } from "@opentelemetry/api";
import type { CountryCode } from "libphonenumber-js/max";
import type { Client } from "../../api/client.ts";
import {
  AmbiguousWriteError,
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  OwnershipLostError,
  RateLimitError,
  RequestValidationError,
} from "../../api/errors/index.ts";
import { NOT_SENT_CODES } from "../../api/retry-policy.ts";
import type { ContactCreate } from "../../api/schemas/contact.ts";
import type { SendFence } from "../../api/send-fence.ts";
import { e164OfServicePhone } from "../../lib/phone-e164.ts";
import { inSpan } from "../../telemetry/span.ts";
import type { ClaimResult, ContactLedger } from "../stores/contact-ledger.ts";

export interface ContactToImport {
  phone: string;
  contact: ContactCreate;
  /** Data-row index in the file, for progress and checkpoints. */
  index: number;
  /** Physical line in the file and the cells as read, for the error report. */
  line?: number;
  cells?: string[];
}

export interface FailedContact {
  phone: string;
  index: number;
  line: number | undefined;
  cells: string[] | undefined;
  message: string;
}

export interface ImportOptions {
  client: Client;
  ledger: ContactLedger;
  segmentId: string;
  /** Identifies this attempt; a new one per process or retry. */
  owner: string;
  /** Who the contacts created are recorded as created by (a file's identity): its audience. */
  creator?: string;
  /** Creates in flight at once. */
  concurrency?: number;
  /** Reconcile ambiguous writes once this many are waiting (and at the end). */
  reconcileBatch?: number;
  /** Rounds of reconcile-and-resend before giving up on a contact. */
  maxRounds?: number;
  /** How often to look again at contacts another attempt holds. Default 250 ms. */
  waitPollMs?: number;
  signal?: AbortSignal;
  /** The job's country: listed phones without a country code are read in it (the ledger holds E.164). */
  country?: CountryCode | undefined;
  onProgress?: (progress: ImportCounts) => void;
  /** A row is settled: created, known, failed or done by another attempt. For checkpoints. */
  onSettled?: (index: number) => void;
}

export interface ImportCounts {
  /** Created by this attempt (confirmed by a response or found by reconciling). */
  created: number;
  /** Already in the segment before this attempt. */
  known: number;
  /** Created meanwhile by a concurrent attempt that held them. */
  elsewhere: number;
  /** Rejected by the service (4xx): not created. */
  failed: FailedContact[];
  /** Reconciliation rounds (each one lists the segment's contacts). */
  reconciles: number;
}

/**
 * Creates each contact in the segment exactly once, however often this is run, interrupted,
 * retried or run twice at once: the ledger is claimed before sending and checked again at the
 * moment each create leaves (the fence); an ambiguous failure (timeout, 5xx, connection lost after
 * sending) is reconciled by listing the segment's contacts, begun at least the settle time after
 * the create was sent, before it is sent again; a 429 is simply retried after its delay.
 * `rows` may come in batches (rows read ahead and checked together): a batch is claimed in one
 * round trip, then each row claimed is sent as before, fenced at the moment it leaves.
 */
export async function importContacts(
  rows: AsyncIterable<ContactToImport | readonly ContactToImport[]>,
  o: ImportOptions,
): Promise<ImportCounts> {
  const concurrency = o.concurrency ?? 8;
  const counts: ImportCounts = { created: 0, known: 0, elsewhere: 0, failed: [], reconciles: 0 };
  let uncertain: ContactToImport[] = [];
  let waiting: ContactToImport[] = [];
  const inflight = new Set<Promise<void>>();
  // A failed send is kept here and rethrown by the loop: a rejected task nobody awaits yet would crash Node.
  let failure: unknown;
  // Sends still in flight finish first: each settles its own claim before the import stops.
  const rethrow = async () => {
    if (failure === undefined) return;
    await Promise.allSettled([...inflight]);
    // The creates answered are the service's: written if Redis still answers, else reconciled later.
    await flushDone().catch(() => undefined);
    throw failure;
  };

  // Local send times too: a ledger lost with Redis loses its own, never these.
  const sentAt = new Map<string, number>();
  let wiped = false;
  // Creates answered, their done marks not yet written: they ride on the next send's fence (one
  // round trip for both), or are written by `flushDone` when no send follows. A row is counted and
  // settled (checkpointed) only once its mark is written; lost with a crash, it is reconciled.
  let answered: ContactToImport[] = [];
  const settleDone = (rows: readonly ContactToImport[]) => {
    counts.created += rows.length;
    for (const row of rows) o.onSettled?.(row.index);
  };
  const flushDone = async () => {
    const rows = answered;
    answered = [];
    if (rows.length === 0) return;
    await o.ledger.markDone(
      o.segmentId,
      rows.map((r) => r.phone),
      o.creator,
    );
    settleDone(rows);
  };
  const fenceOf = (row: ContactToImport): SendFence => ({
    async beforeSend() {
      o.signal?.throwIfAborted();
      const marks = answered;
      answered = [];
      let held: Awaited<ReturnType<ContactLedger["fence"]>>;
      try {
        held = await o.ledger.fence(
          o.segmentId,
          row.phone,
          o.owner,
          marks.map((r) => r.phone),
          o.creator,
        );
      } catch (error) {
        answered.push(...marks);
        throw error;
      }
      settleDone(marks);
      if (held !== "owned")
        throw new OwnershipLostError(`contact ${row.index + 1}`, held === "wiped" ? "wiped" : "taken");
      sentAt.set(row.phone, performance.now());
    },
    keepAlive: () => o.ledger.renew(o.segmentId, row.phone, o.owner),
    keepAliveEveryMs: Math.max(50, Math.floor(o.ledger.leaseMs / 3)),
  });

  const send = async (row: ContactToImport): Promise<void> => {
    for (;;) {
      try {
        await o.client.contacts.create(o.segmentId, row.contact, {
          signal: o.signal,
          fence: fenceOf(row),
          idempotencyKey: idempotencyKeyOf(o.segmentId, row.phone),
        });
        answered.push(row);
        // A few at most wait for the next fence; a longer queue (no sends left) is written at once.
        if (answered.length >= DONE_MARKS_AT_MOST) await flushDone();
        return;
      } catch (error) {
        if (error instanceof AmbiguousWriteError) {
          uncertain.push(row);
          return;
        }
        // Not sent: its owner now (or, the ledger lost, this attempt once it knows again) sends it.
        if (error instanceof OwnershipLostError) {
          if (error.reason === "wiped") wiped = true;
          waiting.push(row);
          return;
        }
        if (error instanceof RateLimitError) {
          await sleep(error.retryAfterMs ?? 1000, undefined, { signal: o.signal });
          continue;
        }
        if (error instanceof APIError && error.status !== undefined && error.status < 500) {
          await o.ledger.release(o.segmentId, row.phone, o.owner);
          // The segment is gone or the key refused: no row can succeed, so stop the import.
          if (FATAL_STATUSES.has(error.status)) throw error;
          counts.failed.push({
            phone: row.phone,
            index: row.index,
            line: row.line,
            cells: row.cells,
            message: error.message,
          });
          o.onSettled?.(row.index);
          return;
        }
        // Free the claim only when the service certainly did not get the request. Anything else
        // (an abort, a crash) keeps it: the service may still apply it, so a later attempt reconciles.
        if (certainlyNotSent(error)) await o.ledger.release(o.segmentId, row.phone, o.owner);
        throw error;
      }
    }
  };

  // The segment's phones as the ledger keys them: E.164, whatever the service's spelling; kept as written if not a number.
  const listedPhones = async () =>
    (await o.client.contacts.list(o.segmentId, { signal: o.signal }))
      .map((c) => c.phone)
      .filter((p): p is string => typeof p === "string" && p.trim().length > 0)
      .map((p) => e164OfServicePhone(p, o.country) ?? p.trim());

  const reconcile = async () => {
    let round = 0;
    while (uncertain.length > 0) {
      if (++round > (o.maxRounds ?? 10)) {
        throw new Error(
          `could not confirm ${uncertain.length} contacts of segment ${o.segmentId} after ${round - 1} rounds`,
        );
      }
      await Promise.all(inflight);
      await rethrow();
      await flushDone();
      const batch = uncertain;
      uncertain = [];
      counts.reconciles += 1;
      await inSpan("vcw.ledger.reconcile", { attributes: { "vcw.ledger.uncertain": batch.length } }, (span) =>
        settleUncertain(batch, span),
      );
    }
  };

  /** Until the last local send among `phones` can no longer land. */
  const localSettleWait = (phones: readonly string[]) =>
    Math.max(0, ...phones.map((p) => (sentAt.get(p) ?? -Infinity) + o.ledger.settleMs - performance.now()));

  /**
   * A listing begun once the batch's sends have settled says which landed; the others are taken
   * over and sent again (or wait another round if another attempt's later send hasn't settled).
   */
  const settleUncertain = async (batch: ContactToImport[], span: Span | undefined) => {
    const phones = batch.map((r) => r.phone);
    const wait = Math.max(await o.ledger.settleWait(o.segmentId, phones), localSettleWait(phones));
    span?.setAttribute("vcw.ledger.settle_wait_ms", wait);
    if (wait > 0) await sleep(wait, undefined, { signal: o.signal });
    const listedAt = await o.ledger.now();
    const present = new Set(await listedPhones());
    const found = batch.filter((r) => present.has(r.phone));
    span?.setAttribute("vcw.ledger.found", found.length);
    await o.ledger.markDone(
      o.segmentId,
      found.map((r) => r.phone),
      o.creator,
    );
    counts.created += found.length;
    for (const row of found) o.onSettled?.(row.index);
    for (const row of batch.filter((r) => !present.has(r.phone))) {
      const taken = await o.ledger.takeOver(o.segmentId, row.phone, o.owner, listedAt);
      if (taken === "sent") await send(row);
      else if (taken === "unsettled") uncertain.push(row);
      else waiting.push(row);
    }
  };

  /**
   * Redis lost the ledger (restarted without persistence): learn the segment again from a listing
   * begun once this attempt's own sends have settled, before anything is claimed again.
   */
  const reseedIfWiped = async () => {
    if (!wiped) return;
    await Promise.allSettled([...inflight]);
    const wait = localSettleWait([...sentAt.keys()]);
    if (wait > 0) await sleep(wait, undefined, { signal: o.signal });
    await seedFromListing();
    wiped = false;
  };

  const seedFromListing = () =>
    inSpan("vcw.ledger.seed", {}, async (span) => {
      const phones = await listedPhones();
      span?.setAttribute("vcw.ledger.phones", phones.length);
      await o.ledger.seed(o.segmentId, phones);
    });

  // Rows another attempt holds: done by it, released (4xx, not sent), or gone quiet past the lease.
  const awaitOthers = async () => {
    while (waiting.length > 0) {
      await reseedIfWiped();
      const still: ContactToImport[] = [];
      for (const row of waiting) {
        const claim = await o.ledger.claim(o.segmentId, row.phone, o.owner);
        if (claim === "done") {
          counts.elsewhere += 1;
          o.onSettled?.(row.index);
        } else if (claim === "busy") still.push(row);
        else if (claim === "stale") uncertain.push(row);
        else await send(row);
      }
      waiting = still;
      await rethrow();
      await flushDone();
      await reconcile();
      if (waiting.length > 0) await sleep(o.waitPollMs ?? 250, undefined, { signal: o.signal });
    }
  };

  // A ledger that doesn't know what the segment holds (new, expired, or lost with a Redis that
  // restarted without persistence) first learns it from the service: never a duplicate, at the
  // cost of one listing.
  if (!(await o.ledger.isSeeded(o.segmentId))) await seedFromListing();
  await o.ledger.touch(o.segmentId);
  const stale: ContactToImport[] = [];
  /** One row of a batch, given its claim: counted, left to wait, or sent. */
  const take = async (row: ContactToImport, claim: ClaimResult | undefined) => {
    o.signal?.throwIfAborted();
    if (claim === "done") {
      counts.known += 1;
      o.onSettled?.(row.index);
    } else if (claim === "busy") waiting.push(row);
    else if (claim === "stale") stale.push(row);
    else {
      const task: Promise<void> = send(row)
        .catch((error: unknown) => {
          failure ??= error;
        })
        .finally(() => inflight.delete(task));
      inflight.add(task);
      if (inflight.size >= concurrency) await Promise.race(inflight);
    }
    await rethrow();
    if (uncertain.length >= (o.reconcileBatch ?? 100)) await reconcile();
    o.onProgress?.(counts);
  };
  for await (const batch of rows) {
    const batchRows: readonly ContactToImport[] = Array.isArray(batch) ? batch : [batch as ContactToImport];
    if (batchRows.length === 0) continue;
    o.signal?.throwIfAborted();
    await reseedIfWiped();
    const claims =
      batchRows.length === 1
        ? [await o.ledger.claim(o.segmentId, batchRows[0]!.phone, o.owner)]
        : await o.ledger.claimMany(
            o.segmentId,
            batchRows.map((r) => r.phone),
            o.owner,
          );
    let next = 0;
    try {
      for (; next < batchRows.length; next += 1) await take(batchRows[next]!, claims[next]);
    } catch (error) {
      // Claimed, never sent: free them for the next attempt rather than leave them to go stale.
      for (let i = next + 1; i < batchRows.length; i += 1)
        if (claims[i] === "claimed")
          await o.ledger.release(o.segmentId, batchRows[i]!.phone, o.owner).catch(() => undefined);
      throw error;
    }
  }
  await Promise.all(inflight);
  await rethrow();
  await flushDone();
  // Stale claims were made by an attempt that stopped: the service may or may not have them.
  uncertain.push(...stale);
  await reconcile();
  await awaitOthers();
  await flushDone();
  o.onProgress?.(counts);
  return counts;
}

const FATAL_STATUSES = new Set([401, 403, 404]);

/** Done marks waiting for a fence to ride on, at most: beyond, they are written on their own. */
const DONE_MARKS_AT_MOST = 64;

/** One contact's create, the same however often it is sent (by any attempt of any file of the job's segment). */
export function idempotencyKeyOf(segmentId: string, phone: string): string {
  return `vcw-contact-${createHash("sha256").update(`${segmentId}\n${phone}`).digest("hex").slice(0, 32)}`;
}

function certainlyNotSent(error: unknown): boolean {
  if (error instanceof RequestValidationError) return true;
  return (
    error instanceof APIConnectionError &&
    !(error instanceof APIConnectionTimeoutError) &&
    error.networkCode !== undefined &&
    NOT_SENT_CODES.has(error.networkCode)
  );
}
