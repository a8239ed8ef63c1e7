import type { JobDefinition } from "../config/job-definition.ts";
import { guardrailStops } from "../pipeline/reports/experiment-guardrail.ts";
import { gatherExperiment } from "../pipeline/reports/gather-report.ts";
import type { WorkDeps } from "./work-deps.ts";

/** The guardrail looks at a job's experiment at most this often (across workers). */
const LOOK_EVERY_MS = 5_000;

/**
 * The experiment guardrail (`campaign.experiment.guardrail`), after a poll that changed something:
 * the job's figures over its kept campaigns judged, each stop recorded once (the first decision
 * about a variant stands) and logged with its figures. New files then give that variant nobody.
 * A campaign's end is always looked at (`ended`): a look skipped mid-campaign is never the last.
 */
export async function guardExperiment(
  d: Pick<WorkDeps, "store" | "experiments" | "logger" | "now" | "retentionMs">,
  def: JobDefinition,
  ended: boolean,
): Promise<void> {
  const rule = def.campaign?.experiment?.guardrail;
  if (!rule || !def.campaign?.variants) return;
  if (!ended && !(await d.experiments.mayLook(def.name, LOOK_EVERY_MS))) return;
  const now = d.now();
  const { experiments } = d;
  const report = await gatherExperiment(def, { store: d.store }, now, d.retentionMs);
  const state = await experiments.assignment(def.name);
  const metric = def.campaign.experiment?.metric ?? "reached";
  const stops = guardrailStops(report.variants ?? [], rule, metric, state.stopped);
  const added = await experiments.decide(
    def.name,
    stops.map((s) => ({ ...s, action: "stop" as const, by: "guardrail" as const, at: now })),
  );
  for (const s of added)
    d.logger.warn(
      { job: def.name, variant: s.variant, decision: "stop", by: "guardrail", figures: s.figures },
      `experiment ${def.name}: variant ${s.variant} gets no new contacts: ${s.reason}`,
    );
}
