import type { Redis } from "ioredis";
import type { Logger } from "pino";
import type { Client } from "../api/client.ts";
import type { JobDefinition } from "../config/job-definition.ts";
import type { SinkDefinition } from "../config/sink-definition.ts";
import type { CampaignStore } from "../pipeline/campaign-store.ts";
import type { SuppressionList } from "../pipeline/suppression.ts";
import type { Queues } from "./queues.ts";

/** What the processors share; the daemon builds it once. */
export interface WorkDeps {
  jobs: () => ReadonlyMap<string, JobDefinition>;
  sinks: () => Readonly<Record<string, SinkDefinition>>;
  client: Client;
  redis: Redis;
  queues: Queues;
  store: CampaignStore;
  suppression: SuppressionList;
  prefix: string;
  /** Ledger lease (see the import processor). */
  leaseMs: number;
  logger: Logger;
  now: () => number;
}

export function jobOf(d: WorkDeps, name: string): JobDefinition {
  const def = d.jobs().get(name);
  if (!def) throw new Error(`no job definition named "${name}" is loaded`);
  return def;
}
