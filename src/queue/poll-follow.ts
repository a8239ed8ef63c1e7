import type { JobDefinition } from "../config/job-definition.ts";
import type { PolledCampaign } from "../pipeline/campaign/poll-use-case.ts";
import { guardExperiment } from "./experiment-guard.ts";
import { applyIntents } from "./intents.ts";
import { reportLateCopies } from "./late-look.ts";
import type { WorkDeps } from "./work-deps.ts";

/** What a poll asked for, done: the guardrail's look, warnings, the intents made jobs. */
export async function followPoll(
  d: WorkDeps,
  def: JobDefinition,
  campaignId: string,
  polled: PolledCampaign,
) {
  const { poll } = polled;
  if (polled.guard)
    await guardExperiment(d, def, poll.ended).catch((error: unknown) =>
      d.logger.warn({ job: def.name, err: String(error) }, "experiment guardrail: no look this time"),
    );
  for (const status of poll.newUnknownStatuses ?? [])
    d.logger.warn(
      { campaign: campaignId, job: def.name, status, countsAs: def.polling.statuses.unknownIs },
      `campaign ${campaignId} shows status "${status}", in no list of the service profile's statuses: counted as ${def.polling.statuses.unknownIs} and under unknown (add it to a list in jobs/service.yaml)`,
    );
  if (poll.unreadable)
    d.logger.warn(
      { campaign: campaignId, unreadable: poll.unreadable },
      "the service's audience held entries, fields or phones that could not be read: the rest was kept (phones not E.164 as written)",
    );
  if (polled.lateCopies && "failed" in polled.lateCopies)
    d.logger.warn(
      { campaign: campaignId, job: def.name, err: polled.lateCopies.failed },
      "no look for late copies at this poll: the next poll looks",
    );
  else if (polled.lateCopies) await reportLateCopies(d, def, polled.lateCopies);
  await applyIntents(polled.intents, d);
  if (poll.ended)
    d.logger.info({ campaign: campaignId, state: poll.state, version: poll.version }, "campaign ended");
}
