import { z } from "zod";
import { NO_PHONE, readPlainEntry } from "./audience-fast-path.ts";
// The index, not campaign.ts: schemas register in its order, which the OpenAPI document follows.
import { AudienceEntry } from "./schemas/index.ts";
import type { JsonArrayReader } from "./streamed-body.ts";

/** A field that did not fit its schema, and in how many entries. */
export interface OddField {
  field: string;
  count: number;
}

/** What tolerant reading left out of an audience. */
export interface AudienceOddities {
  /** Fields that didn't fit, by name: dropped from their entry, the rest of which is kept. */
  odd: OddField[];
  /** Entries left out: not an object, or no usable phone (an odd `phone` is counted in both). */
  dropped: number;
}

export interface AudienceEntries extends AudienceOddities {
  entries: AudienceEntry[];
}

/**
 * One audience entry read tolerantly: the AudienceEntry schema (unknown fields kept, the id under
 * `id` or `_id`), minus the fields that don't fit it, whose names are in `odd`. `entry` is absent
 * when the value is not an object, or has no usable phone (the key of a result).
 */
export function readAudienceEntry(raw: unknown): { entry?: AudienceEntry; odd: string[] } {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return { odd: [] };
  let parsed = AudienceEntry.safeParse(raw);
  let odd: string[] = [];
  if (!parsed.success) {
    // Each field is checked on its own, so one pass names every field that doesn't fit.
    odd = [...new Set(parsed.error.issues.map((issue) => String(issue.path[0] ?? "")))];
    if (odd.includes("")) return { odd: [] };
    const rest: Record<string, unknown> = { ...raw };
    for (const field of odd) delete rest[field];
    parsed = AudienceEntry.safeParse(rest);
    if (!parsed.success) return { odd };
  }
  return parsed.data.phone?.trim() ? { entry: parsed.data, odd } : { odd };
}

/**
 * Counts what reading entries one at a time left out, for an audience read as a whole or as a
 * stream: `read` each raw entry, keep what it returns, then `oddities()`. Plain entries are read
 * by hand (`readPlainEntry`), the others by the schema. The raw entry may be changed in place.
 */
export class AudienceTally {
  private readonly oddCounts = new Map<string, number>();
  private droppedCount = 0;

  /** The last entry read was plain: read whole, nothing counted (what a reader may remember of it). */
  lastPlain = false;

  read(raw: unknown): AudienceEntry | undefined {
    const plain = readPlainEntry(raw);
    this.lastPlain = plain !== undefined && plain !== NO_PHONE;
    if (plain === NO_PHONE) {
      this.droppedCount += 1;
      return undefined;
    }
    if (plain) return plain;
    const { entry, odd } = readAudienceEntry(raw);
    for (const field of odd) this.oddCounts.set(field, (this.oddCounts.get(field) ?? 0) + 1);
    if (!entry) this.droppedCount += 1;
    return entry;
  }

  oddities(): AudienceOddities {
    const odd = [...this.oddCounts].map(([field, count]) => ({ field, count }));
    return {
      odd: odd.sort((a, b) => b.count - a.count || a.field.localeCompare(b.field)),
      dropped: this.droppedCount,
    };
  }
}

/** A whole audience read entry by entry: one odd entry never hides the others. Pure. */
export function readAudienceEntries(raw: readonly unknown[]): AudienceEntries {
  const tally = new AudienceTally();
  const entries: AudienceEntry[] = [];
  for (const item of raw) {
    const entry = tally.read(item);
    if (entry) entries.push(entry);
  }
  return { entries, ...tally.oddities() };
}

/**
 * The body of `campaigns.audiences` as the client reads it: an array (anything else is an
 * UnexpectedResponseError), then per entry.
 */
export const AudienceEntriesBody = z.array(z.unknown()).transform(readAudienceEntries);

/** The same, entries only: what `campaigns.audiences` resolves to. */
export const AudienceEntryList = AudienceEntriesBody.transform((read) => read.entries);

/** What a streamed audience is given to, entry by entry (`client.campaigns.audiencesStream`). */
export interface AudienceSink<T> {
  /** An attempt starts reading the body: forget what an earlier, failed attempt was given. */
  start(): void | Promise<void>;
  /** `plain`: the entry was read whole, nothing in it left out (an entry the sink may know again by its bytes). */
  entry(entry: AudienceEntry, plain: boolean): void;
  /**
   * An entry's bytes before they are parsed (a streamed body's, every entry in order): true when
   * the sink knows them from an earlier read and took the entry as it was then (it is not parsed).
   */
  raw?(bytes: Uint8Array): boolean;
  /** After each chunk of the body; a promise holds the reading (bounded work on what it gathered). */
  afterChunk?(): Promise<void> | undefined;
  /** The whole audience was read; `oddities` is what tolerant reading left out of it. */
  finish(oddities: AudienceOddities): T | Promise<T>;
}

/** A sink as a reader of the raw JSON array: each raw entry read tolerantly, counted per attempt. */
export function audienceArrayReader<T>(sink: AudienceSink<T>): JsonArrayReader<T> {
  let tally = new AudienceTally();
  return {
    start() {
      tally = new AudienceTally();
      return sink.start();
    },
    item(raw) {
      const entry = tally.read(raw);
      if (entry) sink.entry(entry, tally.lastPlain);
    },
    ...(sink.raw ? { raw: (bytes: Uint8Array) => sink.raw!(bytes) } : {}),
    afterChunk: () => sink.afterChunk?.(),
    finish: () => sink.finish(tally.oddities()),
  };
}
