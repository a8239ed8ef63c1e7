import type { Client } from "../../src/api/client.ts";
import { JobDefinition } from "../../src/config/job-definition.ts";
import type { RedisClient } from "../../src/lib/redis.ts";
import type { RedisKeys } from "../../src/lib/redis-keys.ts";
import { fileIntoOwnSegment, type OwnSegmentDeps } from "../../src/pipeline/campaign/own-segment.ts";
import type { StartCheckDeps } from "../../src/pipeline/campaign/start-check.ts";
import type { CampaignInfo } from "../../src/pipeline/model/results.ts";
import { createCampaignStore } from "../../src/pipeline/stores/campaign-store.ts";
import { createContactLedger } from "../../src/pipeline/stores/contact-ledger.ts";
import { createCreateMemo } from "../../src/pipeline/stores/create-memo.ts";
import { createStartCheckStore } from "../../src/pipeline/stores/start-check-store.ts";
import { createSuppressionList } from "../../src/pipeline/stores/suppression.ts";
import { validAssistant, validDialer } from "./fixtures.ts";

/**
 * `phones` filed into a segment of their own named `name`, and `copies` campaigns of that name on
 * it (more than one: what a late create leaves), starting `startsInMs` from now: their ids.
 */
export async function campaignOnOwnSegment(
  client: Client,
  deps: OwnSegmentDeps,
  name: string,
  phones: readonly string[],
  o: { startsInMs: number; copies?: number },
): Promise<{ segmentId: string; ids: string[]; info: (id: string) => CampaignInfo }> {
  async function* rows() {
    for (const [index, phone] of phones.entries()) yield { phone, index, contact: { phone } };
  }
  const { segmentId } = await fileIntoOwnSegment(
    { name, description: "a campaign's own segment" },
    rows(),
    { owner: "test", country: "US" },
    deps,
  );
  const scheduledAt = new Date(Date.now() + o.startsInMs).toISOString();
  const body = {
    campaigns_name: name,
    assistant_id: (await client.assistants.create(validAssistant())).id!,
    contacts_id: segmentId,
    dialer_id: (await client.dialers.create(validDialer())).id!,
    scheduled_at: scheduledAt,
  };
  const ids: string[] = [];
  for (let i = 0; i < (o.copies ?? 1); i++) ids.push((await client.campaigns.create(body)).id!);
  const info = (id: string): CampaignInfo => ({
    id,
    name,
    job: "j",
    file: "f.csv",
    sha256: "sha",
    gen: 0,
    segmentId,
    scheduledAt,
    state: "active",
    attempt: 0,
    followUps: [],
  });
  return { segmentId, ids, info };
}

/** The job `j` those campaigns belong to (US numbers, a campaign section), with `extra` fields. */
export const jobJ = (extra: object = {}) =>
  JobDefinition.parse({
    name: "j",
    inbox: "inbox/j",
    segment: { name: "j" },
    contacts: { country: "US" },
    campaign: { assistant: { id: "ast_1" }, dialer: { id: "dlr_1" } },
    ...extra,
  });

/** What the check before a start uses, on `keys`: its stores, the simulator's client, the real clock. */
export function startCheckDeps(client: Client, redis: RedisClient, keys: RedisKeys) {
  const store = createCampaignStore(redis, keys);
  const suppression = createSuppressionList(redis, keys);
  const deps: StartCheckDeps = {
    client,
    memo: createCreateMemo(redis, keys),
    startChecks: createStartCheckStore(redis, keys),
    leaseMs: 30_000,
    ledger: createContactLedger(redis, { keys, leaseMs: 30_000 }),
    store,
    suppression,
    now: Date.now,
  };
  return { deps, store, suppression };
}
