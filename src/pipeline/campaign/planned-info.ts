import type { StartDecision } from "../calling/planned-start.ts";
import type { CampaignInfo } from "../model/results.ts";
import type { CampaignRequest } from "./lifecycle.ts";

/**
 * What a campaign made under calling rules keeps of its plan, for the poll, `vcw stop`, reports
 * and the stop checks: its label, region, window, callBy and times, and the campaign it resumes
 * (its reservation key: the caps check a started campaign against the others').
 */
export function plannedInfo(
  data: CampaignRequest,
  planned: StartDecision | undefined,
): Partial<CampaignInfo> {
  return {
    ...(data.slot ? { slot: data.slot } : {}),
    ...(data.region ? { region: data.region } : {}),
    ...(data.hours ? { hours: data.hours } : {}),
    ...(data.callBy !== undefined ? { callBy: data.callBy } : {}),
    ...(data.resumeOf ? { resumeOf: data.resumeOf } : {}),
    ...(data.repair ? { repair: data.repair } : {}),
    ...(planned?.kind === "start"
      ? { callUntil: planned.callUntil, expectedEndAt: planned.expectedEndAt }
      : {}),
  };
}
