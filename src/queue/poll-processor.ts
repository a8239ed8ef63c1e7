import type { Job } from "bullmq";
import { countryOf } from "../config/ingest-options.ts";
import { dialerKeyOf } from "../pipeline/calling/plan-settings.ts";
import { afterPoll } from "../pipeline/campaign/lifecycle.ts";
import { nextPollAt } from "../pipeline/results/poll-cadence.ts";
import { pollCampaign } from "../pipeline/results/poll-campaign.ts";
import { inCampaignTrace } from "../telemetry/campaign-trace.ts";
import { guardExperiment } from "./experiment-guard.ts";
import { applyIntents } from "./intents.ts";
import { pollStops } from "./poll-stops.ts";
import type { PollJobData } from "./queues.ts";
import { jobOf, type WorkDeps } from "./work-deps.ts";

/**
 * Polls a worker runs at once. A poll mostly waits (the service, Redis): at 4, a worker could not
 * keep 2,000 calling campaigns on a 10 s schedule once a poll took 20 ms. Memory stays bounded per
 * poll (the index of its campaign, 2,000 changes at most), so 16 big campaigns at once still fit.
 */
export const POLL_CONCURRENCY = 16;

/** Polls one campaign; what follows its end (summaries, a follow-up) is the lifecycle's decision. */
export function createPollProcessor(d: WorkDeps) {
  // Each poll joins the trace its campaign was created in (the tick that enqueued it is linked).
  return (job: Job<PollJobData>) =>
    inCampaignTrace(d.redis, d.keys, job.data.campaignId, "vcw.poll", POLL_SPAN(job), async (span) => {
      const outcome = await processPoll(job);
      span?.setAttributes({ "vcw.poll.changed": outcome.changed, "vcw.poll.state": outcome.state });
      return outcome;
    });

  async function processPoll(job: Job<PollJobData>) {
    const { campaignId } = job.data;
    const def = jobOf(d, job.data.job);
    const stops = pollStops(d, def, campaignId);
    const polledAt = d.now();
    const outcome = await pollCampaign(campaignId, {
      client: d.client,
      redis: d.redis,
      keys: d.keys,
      store: d.store,
      suppression: d.suppression,
      classes: def.polling.statuses,
      stuckAfterMs: def.polling.stuckAfterMinutes * 60_000,
      now: d.now,
      signal: d.stopping,
      history: d.history,
      country: countryOf(def),
      inFlight: def.polling.inFlight,
      overWithWithdrawn: stops.overWithWithdrawn,
    });
    if (outcome.calls && outcome.changed > 0)
      await d.pace.observe(dialerKeyOf(def), {
        campaignId,
        ...outcome.calls,
        version: outcome.version,
        now: d.now(),
      });
    await stops.after(outcome, polledAt);
    if (outcome.changed > 0)
      await guardExperiment(d, def, outcome.ended).catch((error: unknown) =>
        d.logger.warn({ job: def.name, err: String(error) }, "experiment guardrail: no look this time"),
      );
    if (outcome.pace) {
      const at = d.now();
      const p = def.polling;
      const due = nextPollAt(
        { ...outcome.pace, tickMs: job.data.tick, at },
        {
          periodMs: job.data.periodMs,
          startGraceMs: p.startGraceSeconds * 1000,
          quietAfterMs: p.quiet.afterSeconds * 1000,
          ceilingMs: p.quiet.ceilingSeconds * 1000,
        },
      );
      await d.store.schedulePoll(def.name, campaignId, await stops.dueBy(due));
    }
    for (const status of outcome.newUnknownStatuses ?? [])
      d.logger.warn(
        { campaign: campaignId, job: job.data.job, status, countsAs: def.polling.statuses.unknownIs },
        `campaign ${campaignId} shows status "${status}", in no list of polling.statuses: counted as ${def.polling.statuses.unknownIs} and under unknown (add it to a list in the job)`,
      );
    if (outcome.unreadable)
      d.logger.warn(
        { campaign: campaignId, unreadable: outcome.unreadable },
        "the service's audience held entries, fields or phones that could not be read: the rest was kept (phones not E.164 as written)",
      );
    if (outcome.ended) {
      const stored = await d.store.get(campaignId);
      if (stored) await applyIntents(afterPoll(def, stored.info, outcome), d);
      d.logger.info(
        { campaign: campaignId, state: outcome.state, version: outcome.version },
        "campaign ended",
      );
    }
    return outcome;
  }
}

const POLL_SPAN = (job: Job<PollJobData>) => ({
  attributes: { "vcw.job": job.data.job, "vcw.campaign.id": job.data.campaignId },
});
