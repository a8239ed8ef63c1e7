import type { Client } from "../../api/client.ts";
import { countryOf } from "../../config/ingest-options.ts";
import type { JobDefinition } from "../../config/job-definition.ts";
import {
  deleteContacts,
  jobLockFence,
  listSegment,
  type SegmentListing,
} from "../campaign/segment-listing.ts";
import type { ContactLedger } from "../stores/contact-ledger.ts";
import type { FileRows } from "../stores/file-rows.ts";
import type { ImportSummary, ListedCounts } from "./import-outcome.ts";

export interface ListedCountsDeps {
  client: Client;
  ledger: Pick<ContactLedger, "createdBy">;
}

/**
 * The summary's counts from one listing of the file's segment, not from what vcw meant to do:
 * `created`, the file's phones the service lists that its import created; `known`, the file's
 * phones listed that were there before; extra copies of its phones deleted. Repeatable.
 */
export async function countFromListing(
  def: JobDefinition,
  summary: ImportSummary,
  file: { creator: string; rows: () => Promise<FileRows> },
  d: ListedCountsDeps,
): Promise<void> {
  const segmentId = summary.segment?.id;
  if (!segmentId) return;
  const listing = await listSegment(d.client, segmentId, countryOf(def));
  const phones = new Set((await file.rows()).rows.map((r) => r.phone));
  const created = new Set(await d.ledger.createdBy(segmentId, file.creator));
  const extras = [...phones].flatMap((p) => listing.byPhone.get(p)?.slice(1) ?? []);
  await deleteContacts(
    d.client,
    extras.map((c) => c.id),
    jobLockFence,
  );
  const listedOfFile = [...phones].filter((p) => listing.byPhone.has(p));
  const createdListed = listedOfFile.filter((p) => created.has(p)).length;
  summary.listed = listedOf(listing, extras.length, created, summary);
  summary.created = createdListed;
  summary.known = listedOfFile.length - createdListed;
  summary.elsewhere = 0;
}

function listedOf(
  listing: SegmentListing,
  duplicatesRemoved: number,
  created: ReadonlySet<string>,
  s: ImportSummary,
): ListedCounts {
  return {
    contacts: listing.contacts.length - duplicatesRemoved,
    phones: listing.byPhone.size,
    duplicatesRemoved: (s.listed?.duplicatesRemoved ?? 0) + duplicatesRemoved,
    notListed: [...created].filter((p) => !listing.byPhone.has(p)).length,
    ledger: s.listed?.ledger ?? { created: s.created ?? 0, known: s.known ?? 0, elsewhere: s.elsewhere ?? 0 },
  };
}
