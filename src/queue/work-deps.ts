import type { Logger } from "pino";
import type { Client } from "../api/client.ts";
import type { JobDefinition } from "../config/job-definition.ts";
import type { SinkDefinition } from "../config/sink-definition.ts";
import type { CampaignLister } from "../pipeline/campaign/campaign-listing.ts";
import type { ImportUseCase } from "../pipeline/import/import-use-case.ts";
import type { Stores } from "../pipeline/open-stores.ts";
import { NotDefinedHereError } from "./errors.ts";
import type { Queues } from "./queues.ts";

/** What a worker runs with besides the stores: the jobs, the queues, its log, its clock and settings. */
export interface WorkerContext {
  jobs: () => ReadonlyMap<string, JobDefinition>;
  sinks: () => Readonly<Record<string, SinkDefinition>>;
  queues: Queues;
  logger: Logger;
  now: () => number;
  /** Aborted when the daemon stops: running imports checkpoint and go back to the queue. */
  stopping: AbortSignal;
  /** Ledger lease: must outlast any request still in flight (timeout × attempts, plus margin). */
  leaseMs: number;
  /** How long after its create a campaign may start (VCW_SETTLE_MS); absent: 0. */
  settleMs?: number;
  /** The least time from a campaign's create to its start, for its check (VCW_START_LEAD_MS); absent: 0. */
  startLeadMs?: number;
  /** How long what vcw keeps lives after its use (ledgers here). */
  retentionMs: number;
  /** A file counts as written once its size is stable this long. */
  stableMs: number;
  /** How often a paused job's files and campaigns look again whether it was resumed. */
  pausedRetryMs?: number;
  checkpointMs?: number;
  waitPollMs?: number;
}

/**
 * What the processors share, composed once by the daemon (daemon/daemon.ts): every store (built
 * once, pipeline/open-stores.ts), the service's client, the import use case and the worker's context.
 * Each use case takes its own narrow port of it; none takes Redis.
 */
export interface WorkDeps extends Stores, WorkerContext {
  client: Client;
  imports: ImportUseCase;
  /** The account's campaigns, one listing shared by the start checks and polls due together. */
  listCampaigns?: CampaignLister;
  /** The shared request rate now, a second (the rate gate's): a window-close stop begins ahead by its deletes. */
  requestRate?: () => Promise<number | undefined>;
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
