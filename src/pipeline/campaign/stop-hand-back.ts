import { randomBytes } from "node:crypto";
import type { Client } from "../../api/client.ts";
import { countryOf } from "../../config/ingest-options.ts";
import type { JobDefinition } from "../../config/job-definition.ts";
import type { RedisClient } from "../../lib/redis.ts";
import type { RedisKeys } from "../../lib/redis-keys.ts";
import type { ContactLedger } from "../contacts/contact-ledger.ts";
import type { ContactToImport } from "../contacts/import-contacts.ts";
import type { CampaignInfo } from "../results/model.ts";
import type { CallHistory } from "../stores/call-history.ts";
import type { SuppressionList } from "../stores/suppression.ts";
import { type CampaignRequest, campaignKey } from "./lifecycle.ts";
import { fileIntoOwnSegment } from "./own-segment.ts";
import type { StopStore, WithdrawnContact } from "./stop-store.ts";
import { resumeAt, windowIn } from "./window-close.ts";

export interface HandBackDeps {
  client: Client;
  redis: RedisClient;
  keys: RedisKeys;
  leaseMs: number;
  /** The exactly-once ledger of contacts (built once, daemon/services.ts). */
  ledger: ContactLedger;
  suppression: SuppressionList;
  history: CallHistory;
  stops: StopStore;
}

/**
 * The campaign that calls, at the next opening, the contacts a window close took out of `info`
 * and the service never dialled: filed into a segment of their own (created once, by name; the
 * contacts through the ledger) and reserved in the call history under the new campaign's key
 * (moved from the first campaign's). Opted-out numbers stay out. Repeatable: a crash or retry
 * mid-way makes the same segment, contacts and request again, none twice.
 */
export async function handBack(
  def: JobDefinition,
  info: CampaignInfo,
  waiting: readonly WithdrawnContact[],
  d: HandBackDeps,
  now: number,
): Promise<CampaignRequest | undefined> {
  const stop = await d.stops.get(info.id);
  if (!stop?.handBack) return undefined;
  const closed = waiting.filter((c) => c.reason === "window-closed");
  const suppressed = await d.suppression.which(closed.map((c) => c.phone));
  const callable = closed.filter((c) => !suppressed.has(c.phone));
  if (callable.length === 0) return undefined;
  const window = windowIn(def.campaign?.start, info.zone);
  const notBefore = (window && resumeAt(window, stop.at)) ?? now;
  // Named by the day it resumes: a campaign resumed again the next day gets a segment of its own.
  const base = info.name.replace(/ resumed \d{4}-\d{2}-\d{2}$/, "");
  const request: CampaignRequest = {
    job: info.job,
    sha256: info.sha256,
    gen: info.gen,
    original: info.file,
    segmentId: "",
    attempt: info.attempt,
    name: `${base} resumed ${new Date(notBefore).toISOString().slice(0, 10)}`,
    ...(info.zone ? { zone: info.zone } : {}),
    notBefore,
    resumeOf: info.id,
  };
  const key = campaignKey(request);
  for (const c of callable) {
    await d.history.reserve(c.phone, key, notBefore, 0, true);
  }
  const { segmentId } = await fileIntoOwnSegment(
    {
      name: request.name,
      description: `Contacts of campaign ${info.id} not called before its window closed`,
    },
    rowsOf(callable),
    { owner: `resume-${key}-${randomBytes(4).toString("hex")}`, country: countryOf(def) },
    d,
  );
  await d.stops.set(info.id, { ...stop, handedBackTo: request.name });
  return { ...request, segmentId };
}

async function* rowsOf(contacts: readonly WithdrawnContact[]): AsyncGenerator<ContactToImport> {
  for (const [index, c] of contacts.entries()) yield { phone: c.phone, contact: c.contact, index };
}
