import type { Logger } from "pino";
import type { Client } from "../../api/client.ts";
import type { JobDefinition } from "../../config/job-definition.ts";
import type { RedisClient } from "../../lib/redis.ts";
import type { RedisKeys } from "../../lib/redis-keys.ts";
import { resolveAssistant } from "../campaign/create-campaign.ts";
import { PermanentError } from "../errors.ts";
import { preflightOnce } from "./preflight.ts";
import { createResourceState } from "./state-store.ts";
import { recordUse } from "./uses.ts";

export interface CampaignRecordsDeps {
  client: Client;
  redis: RedisClient;
  keys: RedisKeys;
  logger: Pick<Logger, "info" | "warn">;
}

/**
 * The assistant and dialer ids a job's next campaign is made with. `{ resource }` names the
 * current version applied by `vcw apply`; the version is remembered as used by the campaign of
 * `campaignKey` (so --prune keeps it while it runs), and the job's test call of the day goes first.
 */
export async function campaignRecords(
  d: CampaignRecordsDeps,
  def: JobDefinition,
  campaignKey: string,
  now: number,
  variant?: string,
): Promise<{ assistantId: string; dialerId: string }> {
  const c = def.campaign;
  if (!c) throw new Error(`job ${def.name} has no campaign section`);
  const state = createResourceState(d.redis, d.keys);
  const assistant = assistantOfVariant(c, variant);
  const assistantId =
    "resource" in assistant
      ? await state.currentId("assistant", assistant.resource)
      : await resolveAssistant(d.client, assistant);
  const dialerId = "resource" in c.dialer ? await state.currentId("dialer", c.dialer.resource) : c.dialer.id;
  // Made already (a retry): it was made with what was recorded then.
  if ((await d.redis.exists(d.keys.campaignMemo(campaignKey))) === 1) return { assistantId, dialerId };
  if ("resource" in assistant) await recordUse(d.redis, d.keys, campaignKey, assistantId, now);
  await preflightOnce(d, def, { assistantId, dialerId }, now);
  return { assistantId, dialerId };
}

/** The assistant a campaign of `variant` calls with: the variant's own (it must still be in the job). */
function assistantOfVariant(c: NonNullable<JobDefinition["campaign"]>, variant: string | undefined) {
  if (!variant) return c.assistant;
  const found = c.variants?.find((v) => v.name === variant);
  if (!found)
    throw new PermanentError(
      `job's campaign.variants has no variant "${variant}" any more`,
      "put the variant back in the job (its contacts were given it), or cancel its campaigns",
    );
  return found.assistant;
}
