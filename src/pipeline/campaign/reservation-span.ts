import type { JobDefinition } from "../../config/job-definition.ts";
import { jobWindowOf } from "../calling/plan-settings.ts";
import { type PlannedTimes, plannedStart } from "../calling/planned-start.ts";
import { scheduledAtFor } from "./create-campaign.ts";
import { callUntilOf } from "./stopping/window-close.ts";

/** A campaign with no window may dial any time the caps look back on (a week and a day). */
const NO_WINDOW_MS = 8 * 86_400_000;

/** How long before the window closes a planned campaign must be done (calling.marginMinutes). */
export const marginMsOf = (def: Pick<JobDefinition, "calling">) =>
  (def.calling?.marginMinutes ?? 15) * 60_000;

/**
 * The span in which a campaign asked for now may dial its contacts: a call is reserved for all of
 * it, so the caps hold whenever in it the call comes. Under calling rules, its start and callUntil
 * as the campaign processor will decide them (planned-start.ts); else its start by the job's rule
 * and the close of the window open then; with no window, a week and a day. Undefined when no
 * opening is left (the campaign will not be made).
 */
export function reservationSpan(
  def: JobDefinition,
  r: PlannedTimes & { zone?: string | undefined; notBefore?: number | undefined },
  now: number,
): readonly [number, number] | undefined {
  const from = Math.max(now, r.notBefore ?? now);
  const planned = plannedStart(r, from, marginMsOf(def));
  if (planned?.kind === "too-late") return undefined;
  if (planned) return [planned.scheduledAt, planned.callUntil];
  const start = def.campaign?.start ?? "asap";
  const zone = r.zone ?? jobWindowOf(def).fallback;
  const scheduledAt = scheduledAtFor(start, now, from, zone);
  const close = callUntilOf({ scheduledAt, zone }, start);
  const at = Date.parse(scheduledAt);
  return [at, close ?? at + NO_WINDOW_MS];
}
