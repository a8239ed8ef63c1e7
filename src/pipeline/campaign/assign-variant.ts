import type { JobDefinition } from "../../config/job-definition.ts";
import { experimentId } from "../../config/variant-definition.ts";
import type { ExperimentStore } from "../stores/experiment-store.ts";
import { assignmentKey } from "../variant-assignment.ts";
import type { CampaignRequest } from "./lifecycle.ts";

/**
 * The experiment's record of a planned campaign of one variant (its intention to treat): who was
 * given the variant, and how many of them the cooldown or a cap set aside before the campaign.
 * The contacts put in it keep the variant in later files (stores/experiment-store.ts).
 */
export async function assignVariant(
  def: JobDefinition,
  experiments: Pick<ExperimentStore, "assign">,
  a: {
    request: CampaignRequest;
    variant: string;
    phones: readonly string[];
    callable: ReadonlySet<string>;
    at: number;
  },
): Promise<void> {
  const assigned = a.phones.length;
  await experiments.assign(
    experimentId(def.name, def.campaign?.experiment),
    {
      key: assignmentKey(a.request),
      variant: a.variant,
      assigned,
      setAside: assigned - a.callable.size,
      at: a.at,
    },
    [...a.callable],
  );
}
