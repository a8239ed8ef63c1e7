import { dialersOf } from "../../config/dialer-pool-definition.ts";
import type { JobDefinition } from "../../config/job-definition.ts";
import { assistantsOf } from "../../config/variant-definition.ts";
import { type AppliedResource, stateField } from "../model/resources.ts";
import type { CampaignRegistry } from "../stores/campaign-registry.ts";
import type { CreateMemo } from "../stores/create-memo.ts";
import type { ResourceState } from "../stores/resource-state.ts";

/** A campaign resolved but not yet registered is being created: its version is kept this long. */
export const CREATING_MS = 3_600_000;

/**
 * Versions campaigns still use: those of campaigns active or stuck (still calling, as far as vcw
 * knows), and of campaigns still being created. Uses of campaigns that ended are forgotten here.
 */
export async function campaignUses(
  d: {
    resources: Pick<ResourceState, "uses" | "forgetUse">;
    memo: Pick<CreateMemo, "campaign">;
    store: Pick<CampaignRegistry, "get">;
  },
  now: number,
  /** Forget the uses of campaigns that ended (not in a dry run, which changes nothing). */
  tidy = true,
): Promise<Map<string, string>> {
  const inUse = new Map<string, string>();
  for (const [key, use] of await d.resources.uses()) {
    const campaignId = await d.memo.campaign(key).id();
    const campaign = campaignId ? await d.store.get(campaignId) : undefined;
    if (campaign && campaign.info.state !== "finished") {
      inUse.set(use.id, `campaign ${campaign.info.name} (${campaign.info.state})`);
    } else if (!campaignId && now - use.at < CREATING_MS) {
      inUse.set(use.id, `a campaign being created (${key})`);
    } else if (tidy) {
      await d.resources.forgetUse(key);
    }
  }
  return inUse;
}

/**
 * Records jobs name: an assistant (by id, or the current version of the resource) and a dialer
 * (by id, or the record of the resource): a job's next campaign needs them.
 */
export function jobUses(
  jobs: readonly JobDefinition[],
  state: ReadonlyMap<string, AppliedResource>,
): Map<string, string> {
  const inUse = new Map<string, string>();
  for (const job of jobs) {
    for (const [kind, ref] of [
      ...(job.campaign ? assistantsOf(job.campaign) : []).map((a) => ["assistant", a.ref] as const),
      ...(job.campaign ? dialersOf(job.campaign) : []).map((d) => ["dialer", d] as const),
    ]) {
      if (!ref) continue;
      const id =
        "id" in ref ? ref.id : "resource" in ref ? state.get(stateField(kind, ref.resource))?.id : undefined;
      if (id) inUse.set(id, `job ${job.name}`);
    }
  }
  return inUse;
}
