import type { Logger } from "pino";
import type { Client } from "../../api/client.ts";
import { poolDialerName } from "../../config/dialer-pool-definition.ts";
import type { JobDefinition } from "../../config/job-definition.ts";
import { assistantsOf } from "../../config/variant-definition.ts";
import { resolveAssistant } from "../campaign/create-campaign.ts";
import { PermanentError } from "../errors.ts";
import type { CreateMemo } from "../stores/create-memo.ts";
import type { ResourceState } from "../stores/resource-state.ts";
import { preflightOnce } from "./preflight.ts";

export interface CampaignRecordsDeps {
  client: Client;
  resources: Pick<ResourceState, "currentId" | "recordUse" | "takeTestDay" | "notePreflight">;
  /** Each campaign's create: one made already was made with what was recorded then. */
  memo: Pick<CreateMemo, "campaign">;
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
  dialer?: string,
): Promise<{ assistantId: string; dialerId: string }> {
  const c = def.campaign;
  if (!c) throw new Error(`job ${def.name} has no campaign section`);
  const state = d.resources;
  const { ref: assistant, field } = assistantOfVariant(c, variant);
  const assistantId =
    "resource" in assistant
      ? await state.currentId("assistant", assistant.resource)
      : await resolveAssistant(d.client, assistant, field);
  const ref = dialerRefOf(c, dialer);
  const dialerId = "resource" in ref ? await state.currentId("dialer", ref.resource) : ref.id;
  // Made already (a retry): it was made with what was recorded then.
  if ((await d.memo.campaign(campaignKey).id()) !== undefined) return { assistantId, dialerId };
  if ("resource" in assistant) await state.recordUse(campaignKey, assistantId, now);
  await preflightOnce(d, def, { assistantId, dialerId }, now);
  return { assistantId, dialerId };
}

/** The dialer a campaign calls through: its pool's by name (it must still be in the pool), else the job's one. */
function dialerRefOf(c: NonNullable<JobDefinition["campaign"]>, dialer: string | undefined) {
  if (!dialer) return c.dialer;
  const found = c.dialers?.pool.find((d) => poolDialerName(d) === dialer);
  if (!found)
    throw new PermanentError(
      `job's campaign.dialers.pool has no dialer "${dialer}" any more`,
      "put the dialer back in the pool (its contacts were matched to it), or cancel its campaigns",
    );
  return found;
}

/**
 * The assistant a campaign of `variant` calls with: the variant's own (it must still be in the job),
 * and the job's field that names it (what an error about it points to).
 */
function assistantOfVariant(c: NonNullable<JobDefinition["campaign"]>, variant: string | undefined) {
  const all = assistantsOf(c);
  if (!variant) return all[0]!;
  const found = all.find((a) => a.variant === variant);
  if (!found)
    throw new PermanentError(
      `job's campaign.variants has no variant "${variant}" any more`,
      "put the variant back in the job (its contacts were given it), or cancel its campaigns",
    );
  return found;
}
