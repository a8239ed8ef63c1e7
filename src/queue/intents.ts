import type { Intent } from "../pipeline/campaign/lifecycle.ts";
import type { CampaignStore } from "../pipeline/stores/campaign-store.ts";
import type { Controls } from "../pipeline/stores/controls.ts";
import { enqueueSummary } from "./deliveries.ts";
import { campaignJobId, followUpJobId, resumeJobId } from "./job-ids.ts";
import type { Queues } from "./queues.ts";

/** Turns the lifecycle's intents into jobs. Each job id is deterministic: acting twice adds nothing. */
export async function applyIntents(
  intents: readonly Intent[],
  ctx: { queues: Queues; store: CampaignStore; now: () => number; controls?: Pick<Controls, "isPaused"> },
): Promise<void> {
  for (const intent of intents) {
    switch (intent.kind) {
      case "create-campaign": {
        const r = intent.request;
        const label = `${r.job}/${r.original}${r.attempt > 0 ? ` follow-up ${r.attempt}` : ""}`;
        await ctx.queues.campaigns.add(label, r, { jobId: campaignJobId(r) });
        break;
      }
      case "send-summary":
        await enqueueSummary(
          ctx.queues,
          ctx.store,
          intent.campaignId,
          intent.sinks,
          intent.summary,
          ctx.now(),
          ctx.controls,
        );
        break;
      case "follow-up":
        await ctx.queues.followUps.add(
          "follow-up",
          { job: intent.job, campaignId: intent.campaignId },
          { jobId: followUpJobId(intent.campaignId) },
        );
        break;
      case "hand-back":
        await ctx.queues.followUps.add(
          "resume",
          { job: intent.job, campaignId: intent.campaignId },
          { jobId: resumeJobId(intent.campaignId) },
        );
        break;
    }
  }
}
