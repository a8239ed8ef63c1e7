import type { Span } from "@opentelemetry/api";
import type { RedisClient } from "../lib/redis.ts";
import type { RedisKeys } from "../lib/redis-keys.ts";
import { inSpan, type SpanOptions, traceCarrier } from "./span.ts";
import { tracing } from "./tracing.ts";

/**
 * A campaign lives for days and is polled by ticks that know nothing of its file. Its creation's
 * trace context is kept beside it, so each poll (and what a poll sends) joins the trace that began
 * when the file was dropped. Only with traces on: otherwise nothing is written nor read.
 */
export function createCampaignTraces(redis: RedisClient, keys: RedisKeys, o: { ttlMs: number }) {
  const ttlMs = Math.max(1, Math.round(o.ttlMs));
  return {
    /** Keeps the current trace context as campaign `campaignId`'s. */
    async remember(campaignId: string): Promise<void> {
      const carrier = traceCarrier();
      if (carrier) await redis.set(keys.campaign.trace(campaignId), carrier, "PX", ttlMs);
    },
    /** Runs a step of a campaign (a poll) in a span of the campaign's trace, linked to the current one. */
    async run<T>(
      campaignId: string,
      name: string,
      so: SpanOptions,
      work: (span: Span | undefined) => Promise<T>,
    ): Promise<T> {
      if (!tracing()) return work(undefined);
      const carrier = (await redis.get(keys.campaign.trace(campaignId))) ?? undefined;
      return inSpan(name, { ...so, carrier }, work);
    },
  };
}

export type CampaignTraces = ReturnType<typeof createCampaignTraces>;
