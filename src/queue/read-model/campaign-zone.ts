import type { JobDefinition } from "../../config/job-definition.ts";
import type { StoredCampaign } from "../../pipeline/results/campaign-store.ts";

/** The zone a campaign's times are read in: its callees' own, else its job's window's, else UTC. */
export function zoneOf(info: StoredCampaign["info"], def: JobDefinition | undefined): string {
  if (info.zone) return info.zone;
  const start = def?.campaign?.start;
  const zone = typeof start === "object" && "window" in start ? start.window.timezone : undefined;
  return zone && zone !== "callee" ? zone : "UTC";
}
