import type { AudienceEntries } from "../../api/audience-entries.ts";
import type { Client } from "../../api/client.ts";
import type { AudienceEntry } from "../../api/schemas/campaign.ts";
import { withLock } from "../../lib/lock.ts";
import type { RedisClient } from "../../lib/redis.ts";
import type { RedisKeys } from "../../lib/redis-keys.ts";
import type { CallHistory } from "../campaign/call-history.ts";
import type { SuppressionList } from "../campaign/suppression.ts";
import type { CampaignStore } from "./campaign-store.ts";
import {
  applyRecord,
  isFinalStatus,
  isFinished,
  isUnknownStatus,
  type StatusClasses,
} from "./campaign-totals.ts";
import type { ResultRecord, Unreadable } from "./model.ts";
import { audienceDigest, diffRecords, encodeAll, toRecord } from "./result-record.ts";

/** Fingerprints seen by the last poll of recent campaigns, per process (a few MB per 100,000 entries). */
const seenCache = new Map<string, { version: number; seen: Map<string, string> }>();
const CACHED_CAMPAIGNS = 16;

function remember(campaignId: string, entry: { version: number; seen: Map<string, string> }): void {
  seenCache.delete(campaignId);
  seenCache.set(campaignId, entry);
  if (seenCache.size > CACHED_CAMPAIGNS) seenCache.delete(seenCache.keys().next().value!);
}

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
}

export interface PollOptions {
  client: Client;
  redis: RedisClient;
  keys: RedisKeys;
  store: CampaignStore;
  suppression: SuppressionList;
  classes: StatusClasses;
  /** Non-final entries unchanged this long make the campaign stuck. */
  stuckAfterMs: number;
  /** Each number's call history: told how each call ended. */
  history?: CallHistory;
  /** Aborts the audience request (the daemon stopping, the poll's lock lost). */
  signal?: AbortSignal;
  now?: () => number;
}

/**
 * Polls one campaign's audience, diffs it with what was seen (by E.164 phone), and stores only what
 * changed: records, fingerprints, transitions and totals. An unchanged audience writes nothing.
 * One poll at a time per campaign (a short lock), so overlapping ticks never race.
 */
export async function pollCampaign(campaignId: string, o: PollOptions): Promise<PollOutcome> {
  const locked = await withLock(
    o.redis,
    o.keys.campaign.pollLock(campaignId),
    { ttlMs: 60_000, wait: false },
    (lost) => pollLocked(campaignId, { ...o, signal: o.signal ? AbortSignal.any([o.signal, lost]) : lost }),
  );
  if (!locked.acquired)
    return { changed: 0, version: 0, state: "active", ended: false, optedOut: 0, skipped: "busy" };
  return locked.value;
}

async function pollLocked(campaignId: string, o: PollOptions): Promise<PollOutcome> {
  const now = o.now ?? Date.now;
  const stored = await o.store.get(campaignId);
  if (!stored)
    return { changed: 0, version: 0, state: "active", ended: false, optedOut: 0, skipped: "unknown" };
  const { info } = stored;
  if (info.state !== "active") {
    await o.store.retire(campaignId, info.job);
    return {
      changed: 0,
      version: stored.version,
      state: info.state,
      ended: false,
      optedOut: 0,
      skipped: "not-active",
    };
  }
  const read = await o.client.campaigns.audiencesReport(campaignId, o.signal ? { signal: o.signal } : {});
  const { records, duplicatePhones } = recordsByPhone(read.entries);
  const encoded = encodeAll(records);
  const digest = audienceDigest(records, encoded);
  const at = now();

  if (digest === stored.digest) {
    // Quiet before the start is not stuck: count from the later of the last change and the start.
    const since = Math.max(stored.lastChangeAt, Date.parse(info.scheduledAt) || 0);
    const stuck = !isFinished(stored.totals) && at - since > o.stuckAfterMs;
    if (stuck) await o.store.setState(campaignId, info.job, info, "stuck");
    return {
      changed: 0,
      version: stored.version,
      state: stuck ? "stuck" : "active",
      ended: stuck,
      optedOut: 0,
    };
  }

  // The fingerprints of the last poll are usually still in memory; Redis is read only when not.
  const cached = seenCache.get(campaignId);
  const seen =
    cached?.version === stored.version
      ? cached.seen
      : new Map(Object.entries(await o.store.fingerprints(campaignId)));
  const changes = diffRecords(seen, records, encoded);
  const before = await o.store.records(
    campaignId,
    changes.map((c) => c.phone),
  );
  const totals = stored.totals;
  totals.unreadable = unreadableOf(read, duplicatePhones);
  const transitions = [];
  const optedOut: string[] = [];
  const ended: { phone: string; status: string }[] = [];
  const newUnknown = new Set<string>();
  for (const [i, change] of changes.entries()) {
    const old = before[i];
    if (old) applyRecord(totals, old, -1, o.classes);
    applyRecord(totals, change.record, 1, o.classes);
    const status = change.record.status;
    if (old?.status !== status) {
      transitions.push({ phone: change.phone, from: old?.status ?? "", to: status });
      if (o.classes.optedOut.includes(status)) optedOut.push(change.phone);
      if (isFinalStatus(status, o.classes)) ended.push({ phone: change.phone, status });
    }
    if (isUnknownStatus(status, o.classes) && !totals.unknownSeen?.includes(status)) newUnknown.add(status);
  }
  if (newUnknown.size > 0) totals.unknownSeen = [...(totals.unknownSeen ?? []), ...newUnknown];
  const finished = isFinished(totals);
  const version = stored.version + (changes.length > 0 ? 1 : 0);
  await o.store.commit(
    campaignId,
    info.job,
    { changes, transitions, totals, digest, version, now: at, state: finished ? "finished" : "active" },
    info,
  );
  for (const change of changes) seen.set(change.phone, change.fingerprint);
  remember(campaignId, { version, seen });
  if (optedOut.length > 0) await o.suppression.add(optedOut);
  // Each number's history learns how its call ended (a few at a time: one key per number).
  for (let i = 0; i < ended.length && o.history; i += 200) {
    await Promise.all(
      ended.slice(i, i + 200).map((e) => o.history!.recordOutcome(e.phone, campaignId, e.status, at)),
    );
  }
  return {
    changed: changes.length,
    version,
    state: finished ? "finished" : "active",
    ended: finished,
    optedOut: optedOut.length,
    ...(totals.unreadable ? { unreadable: totals.unreadable } : {}),
    ...(newUnknown.size > 0 ? { newUnknownStatuses: [...newUnknown] } : {}),
  };
}

/** One record per phone: an audience that lists a phone twice counts it once (the last entry). */
function recordsByPhone(entries: readonly AudienceEntry[]): {
  records: ResultRecord[];
  duplicatePhones: number;
} {
  const byPhone = new Map<string, ResultRecord>();
  let duplicatePhones = 0;
  for (const entry of entries) {
    const record = toRecord(entry);
    if (!record) continue;
    if (byPhone.has(record.phone)) duplicatePhones += 1;
    byPhone.set(record.phone, record);
  }
  return { records: [...byPhone.values()], duplicatePhones };
}

/** What the service's answer held that could not be read, as of this poll. */
function unreadableOf(read: AudienceEntries, duplicatePhones: number): Unreadable | undefined {
  if (read.dropped === 0 && read.odd.length === 0 && duplicatePhones === 0) return undefined;
  return {
    fields: Object.fromEntries(read.odd.map((o) => [o.field, o.count])),
    entriesLeftOut: read.dropped,
    duplicatePhones,
  };
}
