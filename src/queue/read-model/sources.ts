import type { JobDefinition } from "../../config/job-definition.ts";
import type { InboxStores } from "../../inbox/inbox-store.ts";
import type { RedisClient } from "../../lib/redis.ts";
import type { RedisKeys } from "../../lib/redis-keys.ts";
import type { CampaignStore } from "../../pipeline/stores/campaign-store.ts";
import type { Controls } from "../../pipeline/stores/controls.ts";
import type { PresenceStore } from "../../pipeline/stores/daemon-presence.ts";
import type { ExperimentStore } from "../../pipeline/stores/experiment-store.ts";
import type { ResourceState } from "../../pipeline/stores/resource-state.ts";
import type { Queues } from "../queues.ts";
import type { PoolNumberSources } from "./pool-numbers.ts";

/** What the read model reads: the stores (through their own read functions), the queues, the jobs. */
export interface ReadModelSources {
  redis: RedisClient;
  keys: RedisKeys;
  queues: Queues;
  store: CampaignStore;
  /** Each job's experiment decisions (daemon/services.ts builds the store once). */
  experiments: Pick<ExperimentStore, "decisions" | "assignments">;
  /** Which jobs are paused. */
  controls: Pick<Controls, "isPaused">;
  /** Each job's last test call. */
  resources: Pick<ResourceState, "preflights">;
  jobs: () => ReadonlyMap<string, JobDefinition>;
  /** Each job's inbox: a drop folder or a bucket prefix. */
  inboxes: InboxStores;
  /** Jobs whose inbox this process watches. */
  watched: () => ReadonlySet<string>;
  /** The daemons running and the jobs each ticks: who polls what. */
  presence: Pick<PresenceStore, "list">;
  /** Pool numbers' budgets and rests (`campaign.dialers`); absent: none shown. */
  numbers?: PoolNumberSources;
}

/** How many of each list the read model keeps (the rest is counted, not listed). */
export const LISTED = {
  inFlight: 20,
  recentFiles: 15,
  campaigns: 12,
  campaignsNotMade: 20,
  failedDeliveries: 10,
  pendingCampaigns: 20,
} as const;
