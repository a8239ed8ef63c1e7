import { beforeAll } from "vitest";
import { AUDIENCE_STATUSES } from "../../src/api/schemas/audience-status.ts";
import { redisKeys } from "../../src/lib/redis-keys.ts";
import { createCampaignStore } from "../../src/pipeline/stores/campaign-store.ts";
import { createSuppressionList } from "../../src/pipeline/stores/suppression.ts";
import type { SimulatorOptions } from "../../src/simulator/server.ts";
import { campaignInfo, validAssistant, validDialer } from "./fixtures.ts";
import { useRedis } from "./redis.ts";
import { useSimulator } from "./simulator.ts";

/** The status classes of the example job. */
export const STATUS_CLASSES = {
  final: [...AUDIENCE_STATUSES.done, ...AUDIENCE_STATUSES.retry, ...AUDIENCE_STATUSES.optedOut],
  retry: [...AUDIENCE_STATUSES.retry],
  optedOut: [...AUDIENCE_STATUSES.optedOut],
  pending: [...AUDIENCE_STATUSES.pending],
  unknownIs: "final" as const,
};

/**
 * For the tests of one file: a simulator whose time is frozen (moved by hand), Redis, and
 * `campaignOf`, which makes a campaign of `contacts` contacts there and registers it with a store.
 * `options`: the simulator's, besides its frozen time (an `onRequest` that counts requests).
 */
export function usePollCampaigns(options: Partial<SimulatorOptions> = {}) {
  const t = useSimulator({ timeScale: 1e-9, ...options });
  const { redis, prefix } = useRedis();
  let ids: { assistant: string; dialer: string };

  beforeAll(async () => {
    ids = {
      assistant: (await t.client.assistants.create(validAssistant())).id!,
      dialer: (await t.client.dialers.create(validDialer())).id!,
    };
  });

  async function campaignOf(contacts: number, p: string) {
    const segment = (await t.client.segments.create({ name: `poll-${p}` })).id!;
    for (let i = 0; i < contacts; i++) {
      await t.client.contacts.create(segment, { phone: `+1415555${String(1000 + i)}`, first_name: `P${i}` });
    }
    const id = (
      await t.client.campaigns.create({
        campaigns_name: `poll-${p}`,
        assistant_id: ids.assistant,
        contacts_id: segment,
        dialer_id: ids.dialer,
      })
    ).id!;
    const store = createCampaignStore(redis, redisKeys(p));
    await store.register(campaignInfo({ id, name: `poll-${p}`, segmentId: segment }), Date.now());
    return { id, store };
  }

  /** What `pollCampaign` needs for a campaign of prefix `p`; the simulator's client unless told. */
  const optionsOf = (p: string, store: ReturnType<typeof createCampaignStore>, client = t.client) => ({
    client,
    store,
    suppression: createSuppressionList(redis, redisKeys(p)),
    classes: STATUS_CLASSES,
    stuckAfterMs: 3_600_000,
  });

  return { t, redis, prefix, campaignOf, optionsOf };
}
