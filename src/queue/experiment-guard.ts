import type { JobDefinition } from "../config/job-definition.ts";
import { experimentId } from "../config/variant-definition.ts";
import { ExperimentCampaigns } from "../pipeline/reports/experiment-campaigns.ts";
import { guardrailStops } from "../pipeline/reports/experiment-guardrail.ts";
import { guardrailInputOf } from "../pipeline/reports/experiment-section.ts";
import { gatherExperiment } from "../pipeline/reports/gather-experiment.ts";
import type { WorkDeps } from "./work-deps.ts";

/** The guardrail looks at a job's experiment at most this often (across workers). */
const LOOK_EVERY_MS = 5_000;

/** What this process's looks read, per store and job: a look reads again only the campaigns changed since. */
const keptReads = new WeakMap<object, Map<string, ExperimentCampaigns>>();

function keptFor(store: object, job: string): ExperimentCampaigns {
  const byJob = keptReads.get(store) ?? new Map<string, ExperimentCampaigns>();
  keptReads.set(store, byJob);
  const kept = byJob.get(job) ?? new ExperimentCampaigns(true);
  byJob.set(job, kept);
  return kept;
}

/**
 * The experiment guardrail (`campaign.experiment.guardrail`), after a poll that changed something:
 * the experiment's figures over its kept campaigns judged with always-valid tests (so looking after
 * every poll is sound), each stop recorded once (the first decision about a variant stands) and
 * logged with its figures. New files then give that variant nobody. A sample ratio mismatch holds
 * the comparisons. A campaign's end is always looked at (`ended`): a look skipped mid-campaign is
 * never the last.
 */
export async function guardExperiment(
  d: Pick<WorkDeps, "store" | "experiments" | "logger" | "now">,
  def: JobDefinition,
  ended: boolean,
): Promise<void> {
  if (!def.campaign?.variants) return;
  const rule = def.campaign.experiment?.guardrail;
  const id = experimentId(def.name, def.campaign.experiment);
  const { experiments } = d;
  // Without a guardrail, only the first look of a deployment is taken: it keeps the people called before.
  if (!rule && !(await experiments.needsBackfill(id))) return;
  if (!ended && !(await experiments.mayLook(id, LOOK_EVERY_MS))) return;
  const now = d.now();
  const kept = keptFor(d.store, def.name);
  const gathered = await gatherExperiment(def, { store: d.store, experiments, kept }, now + 1);
  if (!gathered) return;
  const people = await experiments.backfill(id, () => gathered.figures.firstVariants());
  if (people > 0)
    d.logger.info(
      { job: def.name, people },
      `experiment ${def.name}: the variants of people called before are kept`,
    );
  if (!rule) return;
  const state = await experiments.assignment(id);
  const input = guardrailInputOf(gathered.figures, gathered.setup, state.stopped);
  const stops = guardrailStops(input, rule, gathered.setup.metric);
  const added = await experiments.decide(
    id,
    stops.map((s) => ({ ...s, action: "stop" as const, by: "guardrail" as const, at: now })),
  );
  for (const s of added)
    d.logger.warn(
      { job: def.name, variant: s.variant, decision: "stop", by: "guardrail", figures: s.figures },
      `experiment ${def.name}: variant ${s.variant} gets no new contacts: ${s.reason}`,
    );
}
