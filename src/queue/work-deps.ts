import type { Logger } from "pino";
import type { Client } from "../api/client.ts";
import type { JobDefinition } from "../config/job-definition.ts";
import type { SinkDefinition } from "../config/sink-definition.ts";
import type { FileRegistry } from "../inbox/file-registry.ts";
import type { RedisClient } from "../lib/redis.ts";
import type { RedisKeys } from "../lib/redis-keys.ts";
import type { ContactLedger } from "../pipeline/contacts/contact-ledger.ts";
import type { ImportUseCase } from "../pipeline/import/import-use-case.ts";
import type { CampaignStore } from "../pipeline/results/campaign-store.ts";
import type { CallFrequency } from "../pipeline/stores/call-frequency.ts";
import type { CallHistory } from "../pipeline/stores/call-history.ts";
import type { Controls } from "../pipeline/stores/controls.ts";
import type { CreateMemo } from "../pipeline/stores/create-memo.ts";
import type { ExperimentStore } from "../pipeline/stores/experiment-store.ts";
import type { FileRowsStore } from "../pipeline/stores/file-rows.ts";
import type { PaceStore } from "../pipeline/stores/pace-store.ts";
import type { PlanStore } from "../pipeline/stores/plan-store.ts";
import type { StartCheckStore } from "../pipeline/stores/start-check-store.ts";
import type { StopStore } from "../pipeline/stores/stop-store.ts";
import type { SuppressionList } from "../pipeline/stores/suppression.ts";
import { NotDefinedHereError } from "./errors.ts";
import type { Queues } from "./queues.ts";

/** What the processors share; the daemon builds it once. */
export interface WorkDeps {
  jobs: () => ReadonlyMap<string, JobDefinition>;
  sinks: () => Readonly<Record<string, SinkDefinition>>;
  client: Client;
  redis: RedisClient;
  keys: RedisKeys;
  queues: Queues;
  store: CampaignStore;
  suppression: SuppressionList;
  history: CallHistory;
  frequency: CallFrequency;
  pace: PaceStore;
  /** The valid rows each import kept, read by its campaigns. */
  fileRows: FileRowsStore;
  plans: PlanStore;
  experiments: ExperimentStore;
  stops: StopStore;
  controls: Controls;
  memo: CreateMemo;
  startChecks: StartCheckStore;
  /** How often a paused job's files and campaigns look again whether it was resumed. */
  pausedRetryMs?: number;
  registry: FileRegistry;
  imports: ImportUseCase;
  /** The exactly-once ledger of contacts, built once (daemon/services.ts). */
  ledger: ContactLedger;
  /** Ledger lease: must outlast any request still in flight (timeout × attempts, plus margin). */
  leaseMs: number;
  /** How long after its create a campaign may start (VCW_SETTLE_MS); absent: 0. */
  settleMs?: number;
  logger: Logger;
  now: () => number;
  /** Aborted when the daemon stops: running imports checkpoint and go back to the queue. */
  stopping: AbortSignal;
  /** How long what vcw keeps lives after its use (ledgers here). */
  retentionMs: number;
  /** A file counts as written once its size is stable this long. */
  stableMs: number;
  checkpointMs?: number;
  waitPollMs?: number;
}

/**
 * The job definition a queued job names. One this process lacks (another daemon of a rolling deploy
 * has it) is no failure: the worker hands the job back (start-worker.ts).
 */
export function jobOf(d: Pick<WorkDeps, "jobs">, name: string): JobDefinition {
  const def = d.jobs().get(name);
  if (!def) throw new NotDefinedHereError("job", name);
  return def;
}
