import type { Logger } from "pino";
import type { JobDefinition } from "../../config/job-definition.ts";
import type { InboxStores } from "../../inbox/inbox-store.ts";
import type { RedisClient } from "../../lib/redis.ts";
import type { RedisKeys } from "../../lib/redis-keys.ts";
import type { RevokeDeps } from "../../pipeline/consent/revoke-consent.ts";
import { type CampaignRegistry, createCampaignRegistry } from "../../pipeline/stores/campaign-registry.ts";
import { createConsentStore } from "../../pipeline/stores/consent-store.ts";
import { type Controls, createControls } from "../../pipeline/stores/controls.ts";
import { type CreateMemo, createCreateMemo } from "../../pipeline/stores/create-memo.ts";
import { createExperimentStore, type ExperimentStore } from "../../pipeline/stores/experiment-store.ts";
import { createStopStore, type StopStore } from "../../pipeline/stores/stop-store.ts";
import { createSuppressionList } from "../../pipeline/stores/suppression.ts";
import type { Queues } from "../queues.ts";

/** What an operator's action runs with (runAction and the actions it hands on to): no Redis, its stores. */
export interface ActionContext {
  queues: Queues;
  jobs: () => ReadonlyMap<string, JobDefinition>;
  /** Each job's inbox (a rejected file is dropped in again). */
  inboxes: InboxStores;
  logger: Logger;
  /** Started campaigns' stops (an operator's stop asks for one; `vcw stop` waits for it). */
  stops: StopStore;
  experiments: ExperimentStore;
  /** The operator's pauses and cancel marks. */
  controls: Controls;
  /** Each campaign's create (a cancel reads and locks it). */
  memo: Pick<CreateMemo, "campaign">;
  /** The campaigns vcw tracks (a stop of one that exists). */
  campaigns: Pick<CampaignRegistry, "get" | "schedulePoll">;
  /** Where a revocation goes: consent per number and the suppression list. */
  revocations: RevokeDeps;
}

type Built = "stops" | "experiments" | "controls" | "memo" | "campaigns" | "revocations";

/** The context with its stores, built once where it is made (the HTTP server, a CLI command). */
export function createActionContext({
  redis,
  keys,
  ...c
}: Omit<ActionContext, Built> & { redis: RedisClient; keys: RedisKeys }): ActionContext {
  return {
    ...c,
    stops: createStopStore(redis, keys),
    experiments: createExperimentStore(redis, keys),
    controls: createControls(redis, keys),
    memo: createCreateMemo(redis, keys),
    campaigns: createCampaignRegistry(redis, keys),
    revocations: {
      consent: createConsentStore(redis, keys),
      suppression: createSuppressionList(redis, keys),
    },
  };
}
