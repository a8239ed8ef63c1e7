import type { JobDefinition } from "../config/job-definition.ts";
import { maskPhone, maskPhonesIn } from "../lib/mask-phone.ts";
import type { LateCopies } from "../pipeline/campaign/late-copies.ts";
import { lookForLateCopies } from "../pipeline/campaign/late-copies.ts";
import { noteCheckInSummary } from "../pipeline/files/summary-checks.ts";
import type { FollowUpJobData } from "./queues.ts";
import { jobOf, type WorkDeps } from "./work-deps.ts";

/** Phones named (masked) in the log of calls made twice: enough to tell, not a whole segment. */
const LOGGED_PHONES = 20;

/** The look for late copies right before a campaign's start (scheduled with its check). */
export async function processLateLook(d: WorkDeps, data: FollowUpJobData) {
  const def = jobOf(d, data.job);
  const stored = await d.store.get(data.campaignId);
  if (stored?.info.state !== "active") return { looked: false };
  const late = await lookForLateCopies(def, stored, d);
  if (late) await reportLateCopies(d, def, late);
  return { looked: true, adopted: late?.adopted.length ?? 0 };
}

/**
 * Copies found after the check, in the log (an error when people were called twice, their phones
 * masked) and in the file's summary (not yet settled: the next look or poll writes it).
 */
export async function reportLateCopies(d: WorkDeps, def: JobDefinition, late: LateCopies): Promise<void> {
  const { info, result } = late;
  const log = {
    job: info.job,
    campaign: info.id,
    name: maskPhonesIn(info.name),
    adopted: late.adopted,
    calledTwice: late.calledTwice.length,
  };
  if (late.startedWhileEmptied > 0)
    logCalledTwice(
      d,
      { ...log, startedWhileEmptied: late.startedWhileEmptied },
      late.calledTwice,
      STARTED_WHILE_EMPTIED,
    );
  else if (late.calledTwice.length > 0)
    logCalledTwice(
      d,
      log,
      late.calledTwice,
      "a copy of this campaign landed after its check and called its people again: adopted, counted as calledTwice",
    );
  else
    d.logger.warn(
      log,
      late.emptied
        ? "a copy of this campaign landed after its check, before its start: its own copy emptied, the late one adopted"
        : "a copy of this campaign landed after its check: adopted",
    );
  await noteCheckInSummary(def, info, result, d);
}

/** The own copy of a late one started while its segment was emptied (late-copies.ts, start-check.ts). */
export const STARTED_WHILE_EMPTIED =
  "this campaign started while its segment was emptied for a late copy: the people it listed are called by both, counted as calledTwice; it is polled and reported, with no follow-up";

/** Calls made twice, as an error: the count, and the first phones masked. */
export function logCalledTwice(
  d: Pick<WorkDeps, "logger">,
  log: object,
  phones: readonly string[],
  message: string,
) {
  d.logger.error({ ...log, phones: phones.slice(0, LOGGED_PHONES).map(maskPhone) }, message);
}
