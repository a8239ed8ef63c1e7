import { type AssignmentState, splitByVariant, type VariantShare } from "../variant-assignment.ts";
import type { PlannedCampaign } from "./plan-campaigns.ts";

/** A planned campaign for one experiment variant's contacts (no variant without `campaign.variants`). */
export type VariantCampaign = PlannedCampaign & { variant?: string };

/**
 * Each planned campaign split by its contacts' variants: same window, times and caps, a campaign
 * per variant (the daemon and `vcw preview` both split this way). Without variants, as planned.
 */
export function campaignsByVariant(
  seed: string,
  campaigns: readonly PlannedCampaign[],
  variants: readonly VariantShare[] | undefined,
  state?: AssignmentState,
): VariantCampaign[] {
  if (!variants) return [...campaigns];
  return campaigns.flatMap((c) =>
    splitByVariant(seed, c.phones, variants, state).map((g) => ({
      ...c,
      phones: g.phones,
      variant: g.variant,
    })),
  );
}
