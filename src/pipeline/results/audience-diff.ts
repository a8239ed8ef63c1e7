import type { CountryCode } from "libphonenumber-js/max";
import type { AudienceOddities, AudienceSink } from "../../api/audience-entries.ts";
import type { AudienceEntry } from "../../api/schemas/campaign.ts";
import { e164OfServicePhone } from "../../lib/phone-e164.ts";
import { toRecord } from "../model/result-record.ts";
import type { ResultRecord } from "../model/results.ts";
import { AudienceDigest } from "./audience-digest.ts";
import { entryFingerprint, formatFingerprint, parseFingerprint } from "./entry-fingerprint.ts";
import { type FingerprintIndex, KNOWN, SEEN_MASK, STAGED } from "./fingerprint-index.ts";
import { rawHash } from "./raw-entry-memo.ts";

/** A record that differs from the stored one (or is new), waiting to be written. */
export interface StagedChange {
  phone: string;
  fingerprint: string;
  record: ResultRecord;
}

export interface AudienceDiffOptions {
  index: FingerprintIndex;
  /**
   * The index holds every phone the campaign's last poll stored (this process made that poll): a
   * phone it doesn't hold is new. Otherwise stored fingerprints are read as entries come.
   */
  warm: boolean;
  /** Stored fingerprints of `phones` (null: none stored). */
  storedFingerprints(phones: string[]): Promise<(string | null)[]>;
  /** Writes changes out of memory; `fresh`: the first of this attempt (anything staged before goes). */
  spill(changes: StagedChange[], fresh: boolean): Promise<void>;
  /** Removes what an earlier attempt spilled. */
  dropSpilled(): Promise<void>;
  /** Changes kept in memory before they are spilled. */
  maxBuffered?: number;
  /** Entries whose stored fingerprint is unknown, looked up together. */
  lookupBatch?: number;
  /** The job's country: phones the service wrote without a country code are read in it. */
  country?: CountryCode | undefined;
}

/** What one read of an audience found. */
export interface AudienceDiff {
  digest: string;
  oddities: AudienceOddities;
  /** Entries whose phone came earlier in the audience (the last one is kept). */
  duplicatePhones: number;
  /** Entries whose phone could not be read as E.164: kept as written. */
  phonesNotNormalized: number;
  /** Changed records still in memory: all of them, unless `spilled`. */
  buffered: StagedChange[];
  /** Some changes were written to the stage (Redis) instead of being kept. */
  spilled: boolean;
  /** Entries known by their bytes from an earlier read, not parsed (RawEntryMemo). */
  knownByBytes: number;
}

interface Pending {
  key: number;
  phone: string;
  entry: AudienceEntry;
  a: number;
  b: number;
}

/** Changes kept in memory before they are spilled, unless told otherwise. */
export const MAX_BUFFERED_CHANGES = 2_000;

/**
 * Diffs an audience with what is stored while it streams, entry by entry, in bounded memory: each
 * entry's fingerprint is compared with the stored one (from the index, or read from Redis in
 * batches when the index doesn't know it), and only changed entries become records. Changes wait
 * in memory up to `maxBuffered`, then are spilled to the stage. The last entry of a phone listed
 * twice wins. Each attempt (`start`) begins again from nothing.
 */
export class AudienceDiffSink implements AudienceSink<AudienceDiff> {
  private readonly maxBuffered: number;
  private readonly lookupBatch: number;
  private digest = new AudienceDigest();
  private duplicatePhones = 0;
  private phonesNotNormalized = 0;
  private buffer = new Map<string, StagedChange>();
  private pending: Pending[] = [];
  private spilledNow = false;
  private spilledEver = false;
  private readonly fp = new Uint32Array(2);
  /** Position in the audience of the next entry's bytes, and the hash of the last entry's. */
  private position = 0;
  private readonly hashed = new Uint32Array(2);
  /** The position `hashed` is of (-1: none; an entry not streamed is not remembered). */
  private hashedAt = -1;
  private knownByBytes = 0;

  constructor(private readonly o: AudienceDiffOptions) {
    this.maxBuffered = o.maxBuffered ?? MAX_BUFFERED_CHANGES;
    this.lookupBatch = o.lookupBatch ?? 1_000;
  }

  async start(): Promise<void> {
    this.o.index.resetPoll();
    this.digest = new AudienceDigest();
    this.duplicatePhones = 0;
    this.phonesNotNormalized = 0;
    this.buffer.clear();
    this.pending = [];
    if (this.spilledEver) await this.o.dropSpilled();
    this.spilledNow = false;
    this.position = 0;
    this.hashedAt = -1;
    this.knownByBytes = 0;
    const { index } = this.o;
    const memo = index.positions;
    if (memo && memo.country !== this.o.country) memo.reset(this.o.country);
  }

  /**
   * An entry's bytes, before they are parsed: bytes this position held at an earlier read, whose
   * record is the one stored and not staged in this read, are taken as they were then (what
   * `entry` and `decide` would do with them, without parsing). Else false: the entry is parsed.
   */
  raw(bytes: Uint8Array): boolean {
    const p = this.position++;
    const h = this.hashed;
    rawHash(bytes, h);
    this.hashedAt = p;
    const { index } = this.o;
    const memo = index.positions;
    if (!memo) return false;
    const w = memo.find(p, h[0]!, h[1]!);
    if (w < 0) return false;
    const i = memo.slotAt(w);
    const a = memo.fingerprintA(w);
    const b = memo.fingerprintB(w);
    const state = index.stateAt(i);
    if (!(state & KNOWN) || state & STAGED || !index.storedIs(i, a, b)) return false;
    const seen = state & SEEN_MASK;
    if (seen > 0) this.duplicatePhones += 1;
    if (memo.notE164At(w)) this.phonesNotNormalized += 1;
    this.digest.add(a, b, seen);
    index.setState(i, (state & ~SEEN_MASK) | (seen < SEEN_MASK ? seen + 1 : seen));
    this.knownByBytes += 1;
    return true;
  }

  entry(entry: AudienceEntry, plain = false): void {
    const { index } = this.o;
    const { fp } = this;
    // The reader keeps only entries with a phone; it is the number, whatever its spelling.
    const written = entry.phone!.trim();
    const e164 = e164OfServicePhone(written, this.o.country);
    if (e164 === undefined) this.phonesNotNormalized += 1;
    const phone = e164 ?? written;
    entry.phone = phone;
    entryFingerprint(entry, fp);
    const key = index.keyOf(phone);
    const i = index.slot(key, this.o.warm ? KNOWN : 0);
    // Its bytes, read whole and nothing left out: known again at the next read (raw above). Not
    // past twice the phones known: a body of tiny elements that are no entries makes no memo.
    const at = this.hashedAt;
    if (plain && at >= 0 && at === this.position - 1 && at < 2 * index.size + 1024) {
      const h = this.hashed;
      index.positionsFor(this.o.country).set(at, h[0]!, h[1]!, fp[0]!, fp[1]!, i, e164 === undefined);
    }
    const state = index.stateAt(i);
    const seen = state & SEEN_MASK;
    if (seen > 0) this.duplicatePhones += 1;
    this.digest.add(fp[0]!, fp[1]!, seen);
    index.setState(i, (state & ~SEEN_MASK) | (seen < SEEN_MASK ? seen + 1 : seen));
    if (state & KNOWN) this.decide(i, phone, entry, fp[0]!, fp[1]!);
    else this.pending.push({ key, phone, entry, a: fp[0]!, b: fp[1]! });
  }

  afterChunk(): Promise<void> | undefined {
    if (this.pending.length < this.lookupBatch && this.buffer.size < this.maxBuffered) return undefined;
    return this.drain();
  }

  async finish(oddities: AudienceOddities): Promise<AudienceDiff> {
    await this.drain();
    return {
      digest: this.digest.value(),
      oddities,
      duplicatePhones: this.duplicatePhones,
      phonesNotNormalized: this.phonesNotNormalized,
      buffered: [...this.buffer.values()],
      spilled: this.spilledNow,
      knownByBytes: this.knownByBytes,
    };
  }

  /** Staged unless the stored record has this fingerprint (and no earlier entry of it was staged). */
  private decide(i: number, phone: string, entry: AudienceEntry, a: number, b: number): void {
    const { index } = this.o;
    const state = index.stateAt(i);
    if (index.storedIs(i, a, b) && !(state & STAGED)) return;
    index.setState(i, state | STAGED);
    this.buffer.set(phone, { phone, fingerprint: formatFingerprint(a, b), record: toRecord(entry)! });
  }

  private async drain(): Promise<void> {
    if (this.pending.length > 0) {
      const pending = this.pending;
      this.pending = [];
      const stored = await this.o.storedFingerprints(pending.map((p) => p.phone));
      const { index } = this.o;
      const fp = new Uint32Array(2);
      for (const [j, p] of pending.entries()) {
        const i = index.slot(p.key, 0);
        // A phone listed twice in one batch: its first entry made it known.
        if (!(index.stateAt(i) & KNOWN)) {
          const text = stored[j];
          if (text && parseFingerprint(text, fp)) index.setStored(i, fp[0]!, fp[1]!);
          // Not one of ours: it matches nothing, so the record is written again.
          else if (text) index.setStored(i, 0, 0);
          else index.setStored(i, undefined);
        }
        this.decide(i, p.phone, p.entry, p.a, p.b);
      }
    }
    if (this.buffer.size >= this.maxBuffered) {
      const changes = [...this.buffer.values()];
      this.buffer.clear();
      await this.o.spill(changes, !this.spilledNow);
      this.spilledNow = true;
      this.spilledEver = true;
    }
  }
}
