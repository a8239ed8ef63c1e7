import { createHash } from "node:crypto";
import { summarize } from "../pipeline/model/campaign-totals.ts";
import type { CampaignSummary } from "../pipeline/model/results.ts";
import type { Payload } from "../pipeline/reports/model.ts";
import type { CampaignRegistry } from "../pipeline/stores/campaign-registry.ts";
import type { Controls } from "../pipeline/stores/controls.ts";
import { deliveryJobId } from "./job-ids.ts";
import type { Queues } from "./queues.ts";

/** The same sink, campaign, kind and version always give the same key. */
export const idempotencyKey = (sink: string, ref: string, kind: string, version: number | string) =>
  createHash("sha256").update(`${sink}\n${ref}\n${kind}\n${version}`).digest("hex").slice(0, 32);

/** Adds one delivery per sink; the payload is fixed now, so a version never changes content. */
export async function enqueueDeliveries(
  queues: Queues,
  sinks: readonly string[],
  ref: string,
  payload: Payload,
  version: number | string,
): Promise<void> {
  for (const sink of sinks) {
    const key = idempotencyKey(sink, ref, payload.kind, version);
    await queues.deliveries.add(
      `${sink}/${payload.kind}`,
      { sink, idempotencyKey: key, payload },
      { jobId: deliveryJobId(sink, key) },
    );
  }
}

/** A campaign's summary at its current version, sent to the job's summary sinks. */
export async function enqueueSummary(
  queues: Queues,
  store: Pick<CampaignRegistry, "get">,
  campaignId: string,
  sinks: readonly string[],
  kind: CampaignSummary["kind"],
  now: number,
  controls?: Pick<Controls, "isPaused">,
): Promise<CampaignSummary | undefined> {
  const stored = await store.get(campaignId);
  if (!stored) return undefined;
  const summary = summarize(stored.info, stored.totals, stored.version, kind, now);
  if (await controls?.isPaused(stored.info.job)) summary.jobPaused = true;
  await enqueueDeliveries(queues, sinks, campaignId, summary, stored.version);
  return summary;
}
