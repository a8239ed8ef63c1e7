import type { Logger } from "pino";
import { type Client, createClient } from "../api/client.ts";
import type { RequestObserver } from "../api/observer.ts";
import type { JobDefinition } from "../config/job-definition.ts";
import { formatProblem, type LoadedJobs, loadJobs, unsetSinkVariables } from "../config/load-jobs.ts";
import { retentionMsOf, type Settings, simulatorStateFile } from "../config/settings.ts";
import type { SinkDefinition } from "../config/sink-definition.ts";
import { createFileRegistry, type FileRegistry } from "../inbox/file-registry.ts";
import { connectRedis, describeTarget, type RedisClient, type RedisTarget } from "../lib/redis.ts";
import { type RedisKeys, redisKeys } from "../lib/redis-keys.ts";
import { createSharedRateLimiter, type SharedRateLimiter } from "../limiter/shared-rate-limiter.ts";
import { type ContactLedger, createContactLedger } from "../pipeline/contacts/contact-ledger.ts";
import { createImportUseCase, type ImportUseCase } from "../pipeline/import/import-use-case.ts";
import { type CampaignStore, createCampaignStore } from "../pipeline/results/campaign-store.ts";
import { type CallFrequency, createCallFrequency } from "../pipeline/stores/call-frequency.ts";
import { type CallHistory, createCallHistory } from "../pipeline/stores/call-history.ts";
import { type Controls, createControls } from "../pipeline/stores/controls.ts";
import { type CreateMemo, createCreateMemo } from "../pipeline/stores/create-memo.ts";
import { expiredText } from "../pipeline/stores/dnc/list-facts.ts";
import { createExperimentStore, type ExperimentStore } from "../pipeline/stores/experiment-store.ts";
import { createFileRowsStore, type FileRowsStore } from "../pipeline/stores/file-rows.ts";
import { createPaceStore, type PaceStore } from "../pipeline/stores/pace-store.ts";
import { createPlanStore, type PlanStore } from "../pipeline/stores/plan-store.ts";
import { createStartCheckStore, type StartCheckStore } from "../pipeline/stores/start-check-store.ts";
import { createStopStore, type StopStore } from "../pipeline/stores/stop-store.ts";
import { createSuppressionList, type SuppressionList } from "../pipeline/stores/suppression.ts";
import { withRequestSpans } from "../telemetry/request-spans.ts";
import { embeddedSimulator } from "./embedded-simulator.ts";
import { StartupError } from "./errors.ts";
import { resolveRedis } from "./redis-connection.ts";
import { checkRedis } from "./redis-health.ts";

/** What every role needs: Redis, the service (or the embedded simulator), the client, the jobs. */
export interface Services {
  redis: RedisClient;
  redisTarget: RedisTarget;
  keys: RedisKeys;
  baseUrl: string;
  client: Client;
  limiter: SharedRateLimiter;
  jobs: ReadonlyMap<string, JobDefinition>;
  sinks: Record<string, SinkDefinition>;
  registry: FileRegistry;
  store: CampaignStore;
  suppression: SuppressionList;
  history: CallHistory;
  /** Calls per number for the frequency caps, beside the history (calling rules). */
  frequency: CallFrequency;
  /** The pace learned of each dialer from polls. */
  pace: PaceStore;
  /** The valid rows each import kept (read once, at import), for its campaigns. */
  fileRows: FileRowsStore;
  plans: PlanStore;
  experiments: ExperimentStore;
  /** Started campaigns' stops: the withdrawn contacts live as long as the campaign's data. */
  stops: StopStore;
  controls: Controls;
  /** What vcw creates once (campaigns, segments): ids, sent marks, locks. */
  memo: CreateMemo;
  startChecks: StartCheckStore;
  imports: ImportUseCase;
  /** The exactly-once ledger of contacts: the one instance every step files contacts through. */
  ledger: ContactLedger;
  /** Ledger lease: longer than any request can stay in flight. */
  leaseMs: number;
  /** Cleanups run in reverse order by `close`; roles add their own. */
  onClose(cleanup: () => Promise<unknown>): void;
  close(): Promise<void>;
}

export interface ServicesOptions {
  /** Start the embedded simulator when no VCS_BASE_URL is set (the `start` and `import` roles). */
  embeddedSimulator: boolean;
  /** A long-running role (false for one-off commands such as `vcw import`): Redis' risks said loudly. */
  daemon?: boolean;
  /** Hears every API attempt (the daemon's request metrics). */
  requestObserver?: RequestObserver;
}

/**
 * The calling service: VCS_BASE_URL with VCS_API_KEY, or the embedded simulator of the home (its
 * stop in `cleanups`) for a process allowed one; a worker never starts its own.
 */
async function serviceOf(
  s: Settings,
  logger: Logger,
  o: ServicesOptions,
  cleanups: (() => Promise<unknown>)[],
): Promise<{ url: string; apiKey: string }> {
  if (s.baseUrl.value) return { url: s.baseUrl.value, apiKey: s.apiKey.value };
  if (!o.embeddedSimulator) {
    throw new Error("Set VCS_BASE_URL to the calling service (workers never start their own simulator)");
  }
  const stateFile = simulatorStateFile(s);
  const sim = await embeddedSimulator(s.home.value, {
    apiKey: s.apiKey.value,
    stateFile,
    demoRecords: true,
    timeScale: s.simTimeScale.value,
    idempotencyKeys: s.idempotencyKeys.value,
  });
  cleanups.push(() => sim.close());
  if (sim.joinedPid !== undefined) {
    logger.info(
      { url: sim.url, pid: sim.joinedPid, stateFile },
      "embedded simulator joined: another vcw runs it under this home (it stops when that process stops)",
    );
  } else {
    logger.info({ url: sim.url, stateFile }, "embedded simulator started");
  }
  return sim;
}

export async function openServices(s: Settings, logger: Logger, o: ServicesOptions): Promise<Services> {
  const cleanups: (() => Promise<unknown>)[] = [];
  const close = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) {
      await cleanup().catch((error: unknown) => logger.warn({ err: String(error) }, "error while stopping"));
    }
  };
  try {
    // Read first: a daemon with a sink that could never deliver refuses to start before anything runs.
    const loaded = await loadJobs(s.jobsDir.value);
    for (const p of loaded.problems) logger.error(formatProblem(p));
    for (const w of loaded.warnings) logger.warn(formatProblem(w));
    const jobs = new Map(loaded.jobs.map(({ job }) => [job.name, job]));
    if (o.daemon !== false) refuseUnsetSinkVariables(loaded);
    const redisAt = await resolveRedis(s, s.home.value);
    if (redisAt.server) cleanups.push(() => redisAt.server!.stop());
    logger.info({ redis: describeTarget(redisAt.target) }, `redis: ${redisAt.source}`);
    const redis = connectRedis(redisAt.target);
    cleanups.push(() => redis.quit());
    await checkRedis(redis, logger, o.daemon === false ? "info" : "warn");
    const keys = redisKeys(s.prefix.value);

    const service = await serviceOf(s, logger, o, cleanups);
    const baseUrl = service.url;

    const limiter = createSharedRateLimiter({
      redis,
      key: keys.limiter,
      limit: s.rateLimit.value,
      onError: (error) => logger.warn({ err: String(error) }, "rate limiter could not reach Redis"),
    });
    // Metrics and, with traces on, a span per attempt (telemetry/request-spans.ts).
    const observer = withRequestSpans(o.requestObserver);
    const client = createClient({
      baseUrl,
      apiKey: service.apiKey,
      timeoutMs: s.requestTimeoutMs.value,
      maxRetries: s.maxRetries.value,
      gate: limiter,
      idempotencyKeys: s.idempotencyKeys.value,
      logger: logger.child({ component: "api" }),
      ...(observer ? { observer } : {}),
    });
    const leaseMs = leaseMsOf(s);
    const registry = createFileRegistry(redis, keys);
    // The one ledger: the import, a file's campaigns and follow-ups file contacts through it.
    // With idempotency keys a re-sent create can't make a second record: no settle wait.
    const settleMs = s.idempotencyKeys.value ? 0 : s.settleMs.value;
    const ledger = createContactLedger(redis, { keys, leaseMs, settleMs, retentionMs: retentionMsOf(s) });
    // An expired do-not-call list still suppresses; the log says so when an import consults it.
    const suppression = createSuppressionList(redis, keys, {
      onExpired: (list) => logger.warn({ source: list.source }, expiredText(list, Date.now())),
    });
    // A number's history outlives the longest cooldown of any job.
    const longestRecall = Math.max(
      0,
      ...[...jobs.values()].map((j) => j.calling.caps.recallAfterDays * 86_400_000),
    );
    const keepMs = Math.max(retentionMsOf(s), longestRecall);
    const history = createCallHistory(redis, keys, { keepMs });
    const fileRows = createFileRowsStore(redis, keys);
    const memo = createCreateMemo(redis, keys);
    return {
      redis,
      redisTarget: redisAt.target,
      keys,
      baseUrl,
      client,
      limiter,
      jobs,
      sinks: loaded.sinks,
      registry,
      store: createCampaignStore(redis, keys, { retentionMs: retentionMsOf(s) }),
      suppression,
      history,
      frequency: createCallFrequency(redis, keys, { keepMs }),
      pace: createPaceStore(redis, keys),
      fileRows,
      plans: createPlanStore(redis, keys),
      experiments: createExperimentStore(redis, keys),
      stops: createStopStore(redis, keys, { retentionMs: retentionMsOf(s) }),
      controls: createControls(redis, keys),
      memo,
      startChecks: createStartCheckStore(redis, keys),
      ledger,
      imports: createImportUseCase({
        client,
        memo,
        leaseMs,
        ledger,
        registry,
        suppression,
        history,
        fileRows,
      }),
      leaseMs,
      onClose: (cleanup) => cleanups.push(cleanup),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The ledger lease: longer than any request can stay in flight, so a live attempt is never overtaken. */
export const leaseMsOf = (s: Settings) =>
  s.requestTimeoutMs.value * (s.maxRetries.value + 1) + s.leaseMarginMs.value;

/** A sink whose secret or URL variable is unset would fail every delivery for hours: refuse now. */
function refuseUnsetSinkVariables(loaded: LoadedJobs): void {
  const unset = unsetSinkVariables(loaded, process.env);
  if (unset.length === 0) return;
  throw new StartupError(
    `${unset.map(formatProblem).join("; ")}. Set the variable${unset.length > 1 ? "s" : ""}, or remove the sink`,
  );
}
