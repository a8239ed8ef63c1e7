import type { AudienceEntry } from "../../api/schemas/campaign.ts";
import type { ResultRecord } from "./results.ts";

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

/** A record to store, with its fingerprint (`entry-fingerprint.ts`). */
export interface Change {
  phone: string;
  record: ResultRecord;
  fingerprint: string;
}
