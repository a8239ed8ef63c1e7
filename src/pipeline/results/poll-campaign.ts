import type { CountryCode } from "libphonenumber-js/max";
import type { Client } from "../../api/client.ts";
import { chunksOf } from "../../lib/chunks.ts";
import { countIn } from "../../lib/tally.ts";
import { inSpan } from "../../telemetry/span.ts";
import { type RevokeDeps, revokeConsent } from "../consent/revoke-consent.ts";
import {
  applyRecord,
  type CampaignTotals,
  isFinalStatus,
  isFinished,
  isUnknownStatus,
  type StatusClasses,
} from "../model/campaign-totals.ts";
import type { Change } from "../model/result-record.ts";
import type { Unreadable } from "../model/results.ts";
import type { CallHistory } from "../stores/call-history.ts";
import { storedCampaignOf } from "../stores/campaign-registry.ts";
import type { CampaignStore, StoredCampaign, Transition } from "../stores/campaign-store.ts";
import type { SuppressionList } from "../stores/suppression.ts";
import { type AudienceDiff, AudienceDiffSink, MAX_BUFFERED_CHANGES } from "./audience-diff.ts";
import { phonesOfDigest } from "./audience-digest.ts";
import { parseFingerprint } from "./entry-fingerprint.ts";
import { FingerprintIndex } from "./fingerprint-index.ts";

/**
 * The fingerprint index of the last poll of recent campaigns, per process: with it, a poll reads
 * no fingerprint from Redis. Kept within a byte budget (a 1,000,000-phone index is about 38 MB);
 * an index is taken out while its campaign is polled, and put back only after a poll that
 * succeeded, with the version it stored.
 */
const indexCache = new Map<string, { version: number; index: FingerprintIndex }>();
const INDEX_CACHE_BYTES = 128 * 1024 * 1024;
/** The bytes of the indexes in the cache, kept as they come and go (no walk over the cache per poll). */
let cachedBytes = 0;

/** Takes a campaign's index out of the cache (its poll holds it meanwhile). */
function takeCached(campaignId: string): { version: number; index: FingerprintIndex } | undefined {
  const entry = indexCache.get(campaignId);
  if (entry) {
    indexCache.delete(campaignId);
    cachedBytes -= entry.index.bytes;
  }
  return entry;
}

/** Puts an index back, newest last; the oldest go while the cache is over its budget. */
function remember(campaignId: string, version: number, index: FingerprintIndex): void {
  takeCached(campaignId);
  indexCache.set(campaignId, { version, index });
  cachedBytes += index.bytes;
  for (const [id, entry] of indexCache) {
    if (cachedBytes <= INDEX_CACHE_BYTES || id === campaignId) break;
    indexCache.delete(id);
    cachedBytes -= entry.index.bytes;
  }
}

/** Forgets every cached index, or one campaign's (a test or benchmark of a cold process). */
export function forgetFingerprintIndexes(campaignId?: string): void {
  if (campaignId !== undefined) {
    takeCached(campaignId);
    return;
  }
  indexCache.clear();
  cachedBytes = 0;
}

/** How many indexes the cache holds and their bytes (tests, the benchmark). */
export const fingerprintCacheSize = () => ({ indexes: indexCache.size, bytes: cachedBytes });

export interface PollOutcome {
  /** Entries that changed since the last poll. */
  changed: number;
  version: number;
  state: "active" | "finished" | "stuck";
  /** The state changed with this poll (to finished or stuck). */
  ended: boolean;
  /** Contacts that opted out in this poll (now suppressed). */
  optedOut: number;
  /** What this poll could not read, when it changed something. */
  unreadable?: Unreadable | undefined;
  /** Statuses in no list that this campaign shows for the first time. */
  newUnknownStatuses?: string[];
  skipped?: "busy" | "unknown" | "not-active";
  /** Calls this poll saw end, and calls not over after it: the dialer's pace is learned from them. */
  calls?: { ended: number; pending: number };
  /** What the next poll's time depends on (poll-cadence.ts), for an active campaign polled. */
  pace?: { inFlight: boolean; lastChangeAt: number; scheduledAtMs: number };
}

/** A poll without a consent store (a test's) still suppresses its opt-outs. */
const NO_CONSENT_STORE: RevokeDeps["consent"] = { revoke: async () => undefined };

export interface PollOptions {
  client: Client;
  store: CampaignStore;
  suppression: SuppressionList;
  /**
   * Told, before a part is committed, of the numbers the audience shows for the first time (each
   * a call the service reports): the audit trail, which records each once however often it is told.
   */
  audit?: ((stored: StoredCampaign, phones: readonly string[]) => Promise<void>) | undefined;
  /** Where a call's opt-out revokes the number's consent, for every job (decision 0067). */
  consent?: RevokeDeps["consent"];
  classes: StatusClasses;
  /** Non-final entries unchanged this long make the campaign stuck. */
  stuckAfterMs: number;
  /** Each number's call history: told how each call ended. */
  history?: CallHistory;
  /** Aborts the audience request (the daemon stopping, the poll's lock lost). */
  signal?: AbortSignal;
  now?: () => number;
  /** Changed records a poll keeps in memory; more are staged in Redis and written in parts. */
  maxBufferedChanges?: number;
  /** The job's country: phones the service wrote without a country code are read in it. */
  country?: CountryCode | undefined;
  /** Statuses of calls under way (the job's `polling.inFlight`): the outcome says if any shows. */
  inFlight?: readonly string[];
  /**
   * Whether a campaign whose calls are not all final is over anyway: contacts were taken out of it
   * (campaign/stopping/stop-settle.ts) and the service lists no call that can still come. `listed`: the
   * phones its audience held.
   */
  overWithWithdrawn?: (
    campaignId: string,
    totals: CampaignTotals,
    listed: number | undefined,
  ) => Promise<boolean>;
}

/** The outcome's pace: is a call under way, since when nothing changed, when the campaign starts. */
const paceOf = (o: PollOptions, totals: CampaignTotals, lastChangeAt: number, scheduledAt: string) => ({
  inFlight: (o.inFlight ?? []).some((status) => countIn(totals.byStatus, status) > 0),
  lastChangeAt,
  scheduledAtMs: Date.parse(scheduledAt),
});

/**
 * Polls one campaign's audience, diffs it with what was seen (by E.164 phone), and stores only what
 * changed: records, fingerprints, transitions and totals. An unchanged audience writes nothing.
 * One poll's writes at a time per campaign (a short lock), so overlapping ticks never race; a poll
 * that finds its campaign unchanged (the usual one) decides so without the lock (`readUnlocked`).
 */
export async function pollCampaign(campaignId: string, o: PollOptions): Promise<PollOutcome> {
  const read = await readUnlocked(campaignId, o);
  if (read && "outcome" in read) return read.outcome;
  const locked = await o.store.polling(campaignId, (lost, meta) =>
    pollLocked(
      campaignId,
      storedCampaignOf(meta),
      { ...o, signal: o.signal ? AbortSignal.any([o.signal, lost]) : lost },
      // What was fetched before the lock holds only if nothing was written since it was read.
      read && sameWrites(read.meta, meta) ? read : undefined,
    ),
  );
  return locked.acquired ? locked.value : notPolled("busy");
}

/** An audience fetched and diffed before the poll's lock, with the meta it was diffed against. */
interface Fetched {
  meta: Record<string, string>;
  diff: AudienceDiff;
  index: FingerprintIndex;
}

/**
 * Two reads of a campaign's meta with no poll's write between them: every write of records and
 * fingerprints counts itself in `writes` (campaign-results.ts), in the MULTI that makes it.
 */
const sameWrites = (a: Record<string, string>, b: Record<string, string>) =>
  a.writes === b.writes && a.version === b.version && a.digest === b.digest;

/**
 * The poll without its lock, as far as it writes nothing: the meta read (one HGETALL), the
 * audience fetched and diffed. Unchanged and neither stuck nor over: the outcome, nothing written,
 * no lock taken. Otherwise what was fetched, for the poll under the lock to go on with (no second
 * request). Undefined, without a request, for the polls that go under the lock as before: a
 * campaign unknown, not active, never written (version 0), with a stop record, or whose audience
 * could be too large to diff in memory (spilling writes the stage: only under the lock).
 */
async function readUnlocked(
  campaignId: string,
  o: PollOptions,
): Promise<{ outcome: PollOutcome } | Fetched | undefined> {
  const meta = await o.store.metaOf(campaignId);
  const stored = storedCampaignOf(meta);
  if (stored?.info.state !== "active" || stored.version === 0 || stored.stop) return undefined;
  const maxBuffered = o.maxBufferedChanges ?? MAX_BUFFERED_CHANGES;
  if (Math.max(stored.totals.contacts, stored.info.audience ?? 0) >= maxBuffered) return undefined;
  const fetched = await streamAudience(campaignId, stored, o, false);
  const { diff, index } = fetched;
  // The audience grew past the buffer: what would have spilled was dropped, and the poll goes
  // under the lock as before (a second request, only for a campaign that grew that much at once).
  if (diff.spilled) return undefined;
  if (diff.digest !== stored.digest) return { meta, ...fetched };
  // Not asked whether it is over with contacts taken out: only a stop takes contacts out, and the
  // meta just read has no stop record (above). A stop written since is seen by the next poll.
  if (stuckAt(stored, (o.now ?? Date.now)(), o)) return { meta, ...fetched };
  remember(campaignId, stored.version, index);
  return { outcome: activeUnchanged(o, stored) };
}

/** A poll that read nothing: `why`, and the campaign's version and state as vcw keeps them. */
const notPolled = (
  why: NonNullable<PollOutcome["skipped"]>,
  version = 0,
  state: PollOutcome["state"] = "active",
): PollOutcome => ({ changed: 0, version, state, ended: false, optedOut: 0, skipped: why });

/**
 * A poll holding the campaign's lock; `stored` is its meta as read with the lock, `fetched` the
 * audience fetched before it against the same meta (or undefined: it is fetched now).
 */
async function pollLocked(
  campaignId: string,
  stored: StoredCampaign | undefined,
  o: PollOptions,
  fetched?: Fetched,
): Promise<PollOutcome> {
  const now = o.now ?? Date.now;
  if (!stored) return notPolled("unknown");
  const { info } = stored;
  if (info.state !== "active") {
    await o.store.retire(campaignId, info.job);
    return notPolled("not-active", stored.version, info.state);
  }
  const { diff, index } = fetched ?? (await streamAudience(campaignId, stored, o, true));
  const at = now();
  if (diff.digest === stored.digest) return unchanged(campaignId, stored, diff, index, at, o);

  const totals = stored.totals;
  totals.unreadable = unreadableOf(diff);
  const apply = changeApplier(campaignId, o, index, totals, at);
  const next = stored.version + 1;
  let changed = 0;
  let optedOut = 0;
  let commit: Prepared | undefined;
  if (!diff.spilled) {
    // The usual poll: every change in memory, written in one MULTI with the meta.
    commit = await apply.prepare(diff.buffered);
    await auditFirstSeen(o, stored, commit);
  } else {
    // Too many changes to hold: they were staged; each part is written with the totals it makes.
    await o.store.stage(campaignId, diff.buffered, false);
    for await (const batch of o.store.staged(campaignId)) {
      // A long write: stop between parts if the poll's lock was lost (another poll may start).
      o.signal?.throwIfAborted();
      const part = await apply.prepare(batch);
      if (part.changes.length === 0) continue;
      await auditFirstSeen(o, stored, part);
      await o.store.commitPart(campaignId, { ...part, totals, version: next, now: at });
      ({ changed, optedOut } = await apply.after(part, changed, optedOut));
    }
  }
  const version = changed > 0 || (commit?.changes.length ?? 0) > 0 ? next : stored.version;
  const finished = isFinished(totals) || (await overAnyway(campaignId, o, totals, diff.digest));
  await commitInSpan(
    o.store,
    campaignId,
    info.job,
    {
      changes: commit?.changes ?? [],
      transitions: commit?.transitions ?? [],
      totals,
      digest: diff.digest,
      version,
      now: at,
      state: finished ? "finished" : "active",
      dropStaged: diff.spilled,
    },
    info,
  );
  if (commit) ({ changed, optedOut } = await apply.after(commit, changed, optedOut));
  // A finished campaign is polled no more: its index would only take room.
  if (!finished) remember(campaignId, version, index);
  return {
    changed,
    version,
    state: finished ? "finished" : "active",
    ended: finished,
    optedOut,
    ...(totals.unreadable ? { unreadable: totals.unreadable } : {}),
    ...(apply.newUnknown.size > 0 ? { newUnknownStatuses: [...apply.newUnknown] } : {}),
    calls: { ended: apply.endedCount(), pending: totals.contacts - totals.final },
    ...(finished ? {} : { pace: paceOf(o, totals, at, info.scheduledAt) }),
  };
}

/** The numbers a part shows for the first time, told to the audit trail before the part is written. */
async function auditFirstSeen(o: PollOptions, stored: StoredCampaign, part: Prepared): Promise<void> {
  if (!o.audit) return;
  await o.audit(
    stored,
    part.transitions.filter((t) => t.from === "").map((t) => t.phone),
  );
}

/**
 * The campaign's audience streamed through a diff against the index of its stored fingerprints.
 * Not `locked`: it writes nothing; changes that would spill are dropped (the diff says `spilled`).
 */
async function streamAudience(campaignId: string, stored: StoredCampaign, o: PollOptions, locked: boolean) {
  const { info } = stored;
  // The index of this process's last poll, if that poll stored the version Redis holds now.
  const cached = takeCached(campaignId);
  const cachedNow = cached?.version === stored.version;
  const index = cachedNow
    ? cached!.index
    : emptyIndex(cached?.index, Math.max(stored.totals.contacts, info.audience ?? 0));
  // Version 0: nothing was ever stored (any write bumps it), so an empty index knows everything.
  const warm = cachedNow || stored.version === 0;
  const sink = new AudienceDiffSink({
    index,
    warm,
    storedFingerprints: (phones) => o.store.fingerprintsOf(campaignId, phones),
    spill: (changes, fresh) => (locked ? o.store.stage(campaignId, changes, fresh) : Promise.resolve()),
    dropSpilled: () => (locked ? o.store.dropStaged(campaignId) : Promise.resolve()),
    ...(o.maxBufferedChanges ? { maxBuffered: o.maxBufferedChanges } : {}),
    country: o.country,
  });
  let diff: AudienceDiff;
  try {
    diff = await o.client.campaigns.audiencesStream(campaignId, sink, o.signal ? { signal: o.signal } : {});
  } catch (error) {
    // Nothing was written but the stage, if anything; it goes too (a stage is only the lock's).
    if (locked) await o.store.dropStaged(campaignId).catch(() => undefined);
    throw error;
  }
  return { diff, index };
}

/** An empty index for `expected` phones: `old` (another version's) cleared when it has the room, else a new one. */
function emptyIndex(old: FingerprintIndex | undefined, expected: number): FingerprintIndex {
  if (!old?.fits(expected)) return new FingerprintIndex(expected);
  old.clear();
  return old;
}

/** The audience as stored last time: the campaign is still active, or stuck if quiet too long. */
async function unchanged(
  campaignId: string,
  stored: StoredCampaign,
  diff: AudienceDiff,
  index: FingerprintIndex,
  at: number,
  o: PollOptions,
): Promise<PollOutcome> {
  const { info } = stored;
  if (diff.spilled) await o.store.dropStaged(campaignId);
  if (await overAnyway(campaignId, o, stored.totals, diff.digest)) {
    await o.store.setState(campaignId, info.job, info, "finished");
    return { changed: 0, version: stored.version, state: "finished", ended: true, optedOut: 0 };
  }
  if (stuckAt(stored, at, o)) {
    await o.store.setState(campaignId, info.job, info, "stuck");
    return { changed: 0, version: stored.version, state: "stuck", ended: true, optedOut: 0 };
  }
  remember(campaignId, stored.version, index);
  return activeUnchanged(o, stored);
}

/** Quiet too long at `at`, calls not all final: stuck. Quiet before the start is not stuck. */
function stuckAt(stored: StoredCampaign, at: number, o: PollOptions): boolean {
  // Count from the later of the last change and the start.
  const since = Math.max(stored.lastChangeAt, Date.parse(stored.info.scheduledAt) || 0);
  return !isFinished(stored.totals) && at - since > o.stuckAfterMs;
}

/** The outcome of a poll that found the campaign as stored, still active. */
const activeUnchanged = (o: PollOptions, stored: StoredCampaign): PollOutcome => ({
  changed: 0,
  version: stored.version,
  state: "active",
  ended: false,
  optedOut: 0,
  pace: paceOf(o, stored.totals, stored.lastChangeAt, stored.info.scheduledAt),
});

/**
 * Not every call final, yet over: contacts were taken out and the service can no longer dial
 * them. Read before the commit: the records of those taken out were stored by earlier polls
 * (this poll's changes to them make them dialled, which only delays the end to the next poll).
 */
async function overAnyway(id: string, o: PollOptions, totals: CampaignTotals, digest: string) {
  if (!o.overWithWithdrawn || isFinished(totals)) return false;
  return o.overWithWithdrawn(id, totals, phonesOfDigest(digest));
}

/** Changes ready to write: the records, their transitions, and who opted out or ended. */
interface Prepared {
  changes: Change[];
  transitions: Transition[];
  optedOut: string[];
  ended: { phone: string; status: string }[];
}

/**
 * Applies changes to the running totals, a batch at a time: each record's stored version is read,
 * taken out of the totals and the new one added. A change whose fingerprint is already stored
 * (staged twice, or written by an earlier part) is left out.
 */
function changeApplier(
  campaignId: string,
  o: PollOptions,
  index: FingerprintIndex,
  totals: CampaignTotals,
  at: number,
) {
  const newUnknown = new Set<string>();
  const fp = new Uint32Array(2);
  const stillChanged = (c: Change) => {
    const i = index.slot(index.keyOf(c.phone), 0);
    return !(parseFingerprint(c.fingerprint, fp) && index.storedIs(i, fp[0]!, fp[1]!));
  };
  let ended = 0;
  return {
    newUnknown,
    endedCount: () => ended,
    async prepare(batch: readonly Change[]): Promise<Prepared> {
      const changes = batch.filter(stillChanged);
      const before = await o.store.records(
        campaignId,
        changes.map((c) => c.phone),
      );
      const out: Prepared = { changes, transitions: [], optedOut: [], ended: [] };
      for (const [i, change] of changes.entries()) {
        const old = before[i];
        if (old) applyRecord(totals, old, -1, o.classes);
        applyRecord(totals, change.record, 1, o.classes);
        const status = change.record.status;
        if (old?.status !== status) {
          out.transitions.push({ phone: change.phone, from: old?.status ?? "", to: status });
          if (o.classes.optedOut.includes(status)) out.optedOut.push(change.phone);
          if (isFinalStatus(status, o.classes)) out.ended.push({ phone: change.phone, status });
        }
        if (isUnknownStatus(status, o.classes) && !totals.unknownSeen?.includes(status)) {
          newUnknown.add(status);
          totals.unknownSeen = [...(totals.unknownSeen ?? []), status];
        }
      }
      return out;
    },
    /** After a part is written: the index learns it, opt-outs are suppressed, histories told. */
    async after(part: Prepared, changed: number, optedOut: number) {
      for (const c of part.changes) {
        if (parseFingerprint(c.fingerprint, fp))
          index.setStored(index.slot(index.keyOf(c.phone), 0), fp[0]!, fp[1]!);
      }
      ended += part.ended.length;
      const revoked = { consent: o.consent ?? NO_CONSENT_STORE, suppression: o.suppression };
      await revokeConsent(part.optedOut, at, `opted out on a call of campaign ${campaignId}`, revoked);
      // Each number's history learns how its call ended (a key per number: a batch sent together).
      if (o.history)
        for (const ended of chunksOf(part.ended)) await o.history.recordOutcomes(ended, campaignId, at);
      return { changed: changed + part.changes.length, optedOut: optedOut + part.optedOut.length };
    },
  };
}

/** What the service's answer held that could not be read, as of this poll. */
function unreadableOf(diff: AudienceDiff): Unreadable | undefined {
  const { oddities: read, duplicatePhones, phonesNotNormalized } = diff;
  if (read.dropped === 0 && read.odd.length === 0 && duplicatePhones === 0 && phonesNotNormalized === 0)
    return undefined;
  return {
    fields: Object.fromEntries(read.odd.map((o) => [o.field, o.count])),
    entriesLeftOut: read.dropped,
    duplicatePhones,
    ...(phonesNotNormalized > 0 ? { phonesNotNormalized } : {}),
  };
}

/** A poll's one write of what changed (records, transitions, totals, meta), in a span of its own. */
function commitInSpan(store: CampaignStore, ...args: Parameters<CampaignStore["commit"]>): Promise<void> {
  const c = args[2];
  const attributes = { "vcw.poll.changes": c.changes.length, "vcw.poll.spilled": c.dropStaged ?? false };
  return inSpan("vcw.poll.commit", { attributes }, () => store.commit(...args));
}
