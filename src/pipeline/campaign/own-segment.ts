import type { Client } from "../../api/client.ts";
import type { JobDefinition } from "../../config/job-definition.ts";
import {
  type ContactToImport,
  type ImportCounts,
  type ImportOptions,
  importContacts,
} from "../contacts/import-contacts.ts";
import { resolveSegment } from "../contacts/resolve-segment.ts";
import type { CampaignInfo } from "../model/results.ts";
import type { ContactLedger } from "../stores/contact-ledger.ts";
import type { CreateMemo } from "../stores/create-memo.ts";

export interface OwnSegmentDeps {
  client: Client;
  /** The segment's create, once (its id, sent mark and lock). */
  memo: Pick<CreateMemo, "segment">;
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
  const { id } = await resolveSegment(d.client, d.memo, segment, {
    lockMs: d.leaseMs,
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

/**
 * Whether a campaign calls a segment of its own (vcw may empty it, take contacts out, hand them
 * back) rather than the job's standing one (`campaign.audience: segment`): a follow-up, a hand-back
 * and a repair are always filed into one of their own, whatever the job's audience.
 */
export const callsOwnSegment = (
  def: Pick<JobDefinition, "campaign">,
  info: Pick<CampaignInfo, "attempt" | "resumeOf" | "repair">,
): boolean =>
  def.campaign?.audience !== "segment" ||
  info.attempt > 0 ||
  info.resumeOf !== undefined ||
  info.repair !== undefined;
