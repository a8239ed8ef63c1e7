import type { Logger } from "pino";
import { type Client, createClient } from "../api/client.ts";
import type { RequestObserver } from "../api/observer.ts";
import type { JobDefinition } from "../config/job-definition.ts";
import { formatProblem } from "../config/job-problems.ts";
import { type LoadedJobs, loadJobs, unsetSinkVariables } from "../config/load-jobs.ts";
import { retentionMsOf, type Settings } from "../config/settings.ts";
import type { SinkDefinition } from "../config/sink-definition.ts";
import { connectRedis, describeTarget, type RedisClient, type RedisTarget } from "../lib/redis.ts";
import { type RedisKeys, redisKeys } from "../lib/redis-keys.ts";
import { createSharedRateLimiter, type SharedRateLimiter } from "../limiter/shared-rate-limiter.ts";
import { createImportUseCase, type ImportUseCase } from "../pipeline/import/import-use-case.ts";
import { leaseMsOf, openStores, type Stores, storeOptionsOf } from "../pipeline/open-stores.ts";
import { expiredText } from "../pipeline/stores/dnc/list-facts.ts";
import { withRequestSpans } from "../telemetry/request-spans.ts";
import { callingService, noEmbeddedSimulator, startHoldOf } from "./calling-service.ts";
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
  /** Every store, built once (pipeline/open-stores.ts). */
  stores: Stores;
  /** The import use case, for the daemon and `vcw import` alike. */
  imports: ImportUseCase;
  /** Ledger lease: longer than any create can stay in flight (a read may wait longer: decision 0053). */
  leaseMs: number;
  /** Cleanups run in reverse order by `close`; roles add their own. */
  onClose(cleanup: () => Promise<unknown>): void;
  close(): Promise<void>;
}

export interface ServicesOptions {
  /** Start the embedded simulator when no VCS_BASE_URL is set and none runs (the `start` and `import` roles); else join one only. */
  embeddedSimulator: boolean;
  /** A long-running role (false for one-off commands such as `vcw import`): Redis' risks said loudly. */
  daemon?: boolean;
  /** Hears every API attempt (the daemon's request metrics). */
  requestObserver?: RequestObserver;
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
    const loaded = await loadJobs(s.jobsDir.value, s.resourcesDir.value);
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

    // Workers never start their own simulator: they join the one a daemon runs under this home.
    const service = await callingService(s, logger, o.embeddedSimulator ? "join-or-start" : "join");
    if (!service) throw new StartupError(`${noEmbeddedSimulator(s)}; a worker never starts its own`);
    cleanups.push(() => service.close());
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
      idempotencyKeys: service.idempotencyKeys,
      logger: logger.child({ component: "api" }),
      ...(observer ? { observer } : {}),
    });
    const leaseMs = leaseMsOf(s);
    // A number's history outlives the longest cooldown of any job.
    const longestRecall = Math.max(
      0,
      ...[...jobs.values()].map((j) => j.calling.caps.recallAfterDays * 86_400_000),
    );
    const stores = openStores(
      redis,
      keys,
      storeOptionsOf(s, {
        keepCallsMs: Math.max(retentionMsOf(s), longestRecall),
        // With idempotency keys a re-sent create can't make a second record: no settle wait.
        settleMs: startHoldOf(s, service.idempotencyKeys).settleMs,
        onExpiredList: (list) => logger.warn({ source: list.source }, expiredText(list, Date.now())),
      }),
    );
    cleanups.push(async () => stores.inboxes.close());
    return {
      redis,
      redisTarget: redisAt.target,
      keys,
      baseUrl,
      client,
      limiter,
      jobs,
      sinks: loaded.sinks,
      stores,
      imports: createImportUseCase({ client, leaseMs, ...stores }),
      leaseMs,
      onClose: (cleanup) => cleanups.push(cleanup),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** A sink whose secret or URL variable is unset would fail every delivery for hours: refuse now. */
function refuseUnsetSinkVariables(loaded: LoadedJobs): void {
  const unset = unsetSinkVariables(loaded, process.env);
  if (unset.length === 0) return;
  throw new StartupError(
    `${unset.map(formatProblem).join("; ")}. Set the variable${unset.length > 1 ? "s" : ""}, or remove the sink`,
  );
}
