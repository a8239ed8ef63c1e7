import { zoneOf } from "../../config/job-zone.ts";
import { experimentId } from "../../config/variant-definition.ts";
import { zonedTime } from "../../lib/zoned-time.ts";
import { operatorDecisions } from "../../pipeline/stores/experiment-actions.ts";
import type { ExperimentDecision } from "../../pipeline/stores/experiment-store.ts";
import type { Action, ActionResult } from "./action.ts";
import type { ActionContext } from "./action-context.ts";

/** A decision for a person: what, about which variant, by whom, when (in the job's zone) and why. */
export const decisionLine = (d: ExperimentDecision, zone: string) =>
  `${d.variant}: ${d.action === "stop" ? "stopped" : "promoted"} by the ${d.by} at ${zonedTime(d.at, zone)}: ${d.reason}`;

/** `vcw experiment stop|promote` and the dashboard's buttons: the decisions recorded, or why not. */
export async function experimentAction(
  ctx: Pick<ActionContext, "experiments" | "jobs">,
  a: Extract<Action, { kind: "experiment-stop" | "experiment-promote" }>,
): Promise<ActionResult> {
  const def = ctx.jobs().get(a.job);
  const variants = def?.campaign?.variants;
  if (!variants)
    return { ok: false, count: 0, message: `job ${a.job} runs no experiment: it names no campaign.variants` };
  const store = ctx.experiments;
  const id = experimentId(a.job, ctx.jobs().get(a.job)?.campaign?.experiment);
  const asked = operatorDecisions(
    a.kind === "experiment-stop" ? "stop" : "promote",
    a.variant,
    variants.map((v) => v.name),
    await store.decisions(id),
    Date.now(),
  );
  if ("error" in asked) return { ok: false, count: 0, message: asked.error };
  const added = await store.decide(id, asked);
  const zone = zoneOf(def);
  return { ok: true, count: added.length, message: added.map((d) => decisionLine(d, zone)).join("\n") };
}
