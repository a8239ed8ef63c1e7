import type { Logger } from "pino";
import type { JobDefinition } from "../../config/job-definition.ts";
import type { InboxStores } from "../../inbox/inbox-store.ts";
import type { RevokeDeps } from "../../pipeline/consent/revoke-consent.ts";
import type { Stores } from "../../pipeline/open-stores.ts";
import type { CampaignRegistry } from "../../pipeline/stores/campaign-registry.ts";
import type { Controls } from "../../pipeline/stores/controls.ts";
import type { CreateMemo } from "../../pipeline/stores/create-memo.ts";
import type { PresenceStore } from "../../pipeline/stores/daemon-presence.ts";
import type { ExperimentStore } from "../../pipeline/stores/experiment-store.ts";
import type { StopStore } from "../../pipeline/stores/stop-store.ts";
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
  /** The campaigns vcw tracks (a stop of one that exists), and whether anybody polls their job. */
  campaigns: Pick<
    CampaignRegistry,
    "get" | "schedulePoll" | "jobsWithCampaigns" | "activeCountOf" | "pollLag"
  >;
  /** The daemons running and the jobs each ticks: a stop is carried out only by a poll. */
  presence: Pick<PresenceStore, "list">;
  /** Where a revocation goes: consent per number and the suppression list. */
  revocations: RevokeDeps;
}

type Taken =
  | "stops"
  | "experiments"
  | "controls"
  | "memo"
  | "campaigns"
  | "revocations"
  | "inboxes"
  | "presence";

/** The stores an action uses, of those opened once (pipeline/open-stores.ts). */
export type ActionStores = Pick<
  Stores,
  "stops" | "experiments" | "controls" | "memo" | "store" | "consent" | "suppression" | "inboxes" | "presence"
>;

/** The context over the stores it is handed (the HTTP server's, a CLI command's). */
export function createActionContext({
  stores,
  ...c
}: Omit<ActionContext, Taken> & { stores: ActionStores }): ActionContext {
  return {
    ...c,
    inboxes: stores.inboxes,
    stops: stores.stops,
    experiments: stores.experiments,
    controls: stores.controls,
    memo: stores.memo,
    campaigns: stores.store,
    presence: stores.presence,
    revocations: { consent: stores.consent, suppression: stores.suppression },
  };
}
