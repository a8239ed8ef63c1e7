import type { JobDefinition } from "../../config/job-definition.ts";
import { experimentId } from "../../config/variant-definition.ts";
import { maskPhonesIn } from "../../lib/mask-phone.ts";
import type { CampaignStore } from "../stores/campaign-store.ts";
import { ExperimentCampaigns } from "./experiment-campaigns.ts";
import { ExperimentFigures } from "./experiment-figures.ts";
import type { AssignmentFacts } from "./experiment-missing.ts";
import type { SectionSetup } from "./experiment-section.ts";
import type { ReportCampaignNotMade } from "./model.ts";

/** Campaigns asked for since `since` and never made (the queue layer reads them). */
export type CampaignsNotMade = (
  since: number,
) => Promise<(Omit<ReportCampaignNotMade, "at"> & { at: string | null })[]>;

/** What the experiment store tells a report (stores/experiment-store.ts), by the experiment's id. */
export interface ExperimentFacts {
  decisions: (id: string) => Promise<readonly { variant: string; at: number; action: string }[]>;
  assignments: (id: string) => Promise<readonly (AssignmentFacts & { at: number })[]>;
}

/**
 * A job's experiment up to `upTo`, cumulative per contact over every campaign vcw keeps of it
 * (every call of a contact, follow-ups too, whatever a report's period): the figures, and the
 * setup its section and the guardrail read. Without `facts`, no decision or assignment is known.
 */
export async function gatherExperiment(
  def: JobDefinition,
  sources: {
    store: CampaignStore;
    /** What earlier looks read, kept (the guardrail's): only campaigns changed since are read again. */
    kept?: ExperimentCampaigns | undefined;
    experiments?: ExperimentFacts | undefined;
    /** Campaigns never made (the queue layer's), when the caller can read them: a variant that got nobody says why. */
    campaignsNotMade?: CampaignsNotMade;
  },
  upTo: number,
): Promise<{ figures: ExperimentFigures; setup: SectionSetup } | undefined> {
  const c = def.campaign;
  if (!c?.variants) return undefined;
  const id = experimentId(def.name, c.experiment);
  const setup: SectionSetup = {
    variants: c.variants.map((v) => ({ name: v.name, share: v.share })),
    metric: c.experiment?.metric ?? "reached",
    reached: new Set(def.polling.statuses.reached),
    optedOut: new Set(def.polling.statuses.optedOut),
    decisions: (await sources.experiments?.decisions(id)) ?? [],
    assignments: await sources.experiments?.assignments(id),
    name: c.experiment?.name,
    plannedContacts: c.experiment?.plannedContacts ?? 5000,
    maxOptOutRate: c.experiment?.guardrail?.maxOptOutRate,
  };
  const figures = new ExperimentFigures(setup);
  const campaigns = sources.kept ?? new ExperimentCampaigns(false);
  for await (const campaign of campaigns.upTo(sources.store, def, upTo)) figures.addCampaign(campaign);
  for (const n of (await sources.campaignsNotMade?.(0)) ?? [])
    if (n.job === def.name && n.variant && n.at !== null && Date.parse(n.at) < upTo)
      figures.addNotMade(n.variant, n.contacts ?? 0, maskPhonesIn(`${n.outcome}: ${n.reason}`));
  return { figures, setup };
}
