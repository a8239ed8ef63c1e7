import { createHash } from "node:crypto";
import type { AudienceEntry } from "../../api/schemas/campaign.ts";
import type { ResultRecord } from "./model.ts";

/** An audience entry as a record, or undefined when it has no phone to key it by. */
export function toRecord(entry: AudienceEntry): ResultRecord | undefined {
  const phone = entry.phone?.trim();
  if (!phone) return undefined;
  const seconds = Number(entry.call_duration_in_sec ?? 0);
  return {
    phone,
    first_name: entry.first_name ?? "",
    last_name: entry.last_name ?? "",
    status: (entry.status ?? "").trim().toLowerCase(),
    durationSec: Number.isFinite(seconds) && seconds > 0 ? seconds : 0,
    sentiment: (entry.call_sentiment ?? "").trim().toLowerCase(),
    transferred: entry.is_call_transferred === true,
    meeting: entry.is_meeting_scheduled === true,
    messageSent: entry.is_message_sent === true,
    error: entry.error ?? "",
    recordingUrl: entry.recording_url ?? "",
    transcript: entry.calltranscribe ?? "",
  };
}

/** A short digest of a record: equal records, equal fingerprints. */
export function fingerprint(record: ResultRecord): string {
  return hash64(JSON.stringify(record));
}

/**
 * Two independent 32-bit FNV-1a lanes over the text, as 13 base-36 digits or so. Not
 * cryptographic: it only tells a changed record from an unchanged one, and runs several times
 * faster than a crypto hash call per record on 100,000 records.
 */
export function hash64(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  return (a >>> 0).toString(36) + (b >>> 0).toString(36).padStart(7, "0");
}

/** The JSON of each record, computed once per poll and shared by the digest and the diff. */
export const encodeAll = (records: readonly ResultRecord[]) => records.map((r) => JSON.stringify(r));

/** One digest of a whole audience, whatever the order of its entries. */
export function audienceDigest(records: readonly ResultRecord[], encoded = encodeAll(records)): string {
  const order = records.map((_, i) => i);
  order.sort((x, y) =>
    records[x]!.phone < records[y]!.phone ? -1 : records[x]!.phone > records[y]!.phone ? 1 : 0,
  );
  const hash = createHash("sha1");
  for (const i of order) hash.update(encoded[i]!).update("\n");
  return hash.digest("base64url");
}

export interface Change {
  phone: string;
  record: ResultRecord;
  fingerprint: string;
}

/** The records whose fingerprint differs from the one seen before (or that are new). Pure. */
export function diffRecords(
  seen: ReadonlyMap<string, string>,
  records: readonly ResultRecord[],
  encoded = encodeAll(records),
): Change[] {
  const changes: Change[] = [];
  records.forEach((record, i) => {
    const fp = hash64(encoded[i]!);
    if (seen.get(record.phone) !== fp) changes.push({ phone: record.phone, record, fingerprint: fp });
  });
  return changes;
}
