import type { Client } from "../../api/client.ts";
import type { RedisClient } from "../../lib/redis.ts";
import type { RedisKeys } from "../../lib/redis-keys.ts";
import type { ContactLedger } from "../contacts/contact-ledger.ts";
import {
  type ContactToImport,
  type ImportCounts,
  type ImportOptions,
  importContacts,
} from "../contacts/import-contacts.ts";
import { resolveSegment } from "../contacts/resolve-segment.ts";

export interface OwnSegmentDeps {
  client: Client;
  redis: RedisClient;
  keys: RedisKeys;
  leaseMs: number;
  /** The exactly-once ledger of contacts, built once (daemon/services.ts). */
  ledger: ContactLedger;
}

/**
 * The step a file's campaigns and a follow-up share: a segment of the campaign's own (its unique
 * name, created once) and these contacts filed into it through the ledger, exactly once however
 * often the step runs again. Which numbers may be called, and their reservations, are the caller's.
 */
export async function fileIntoOwnSegment(
  segment: { name: string; description: string },
  rows: AsyncIterable<ContactToImport>,
  o: Pick<ImportOptions, "owner" | "country">,
  d: OwnSegmentDeps,
): Promise<{ segmentId: string; counts: ImportCounts }> {
  const { id } = await resolveSegment(d.client, d.redis, d.keys, segment, {
    lockMs: d.leaseMs,
    ownName: true,
    settleMs: d.ledger.settleMs,
  });
  const counts = await importContacts(rows, {
    client: d.client,
    ledger: d.ledger,
    segmentId: id,
    owner: o.owner,
    country: o.country,
  });
  return { segmentId: id, counts };
}
