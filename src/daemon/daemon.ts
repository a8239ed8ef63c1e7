import { setMaxListeners } from "node:events";
import type { Worker } from "bullmq";
import type { Logger } from "pino";
import type { JobDefinition } from "../config/job-definition.ts";
import { describeSettings, retentionMsOf, type Settings } from "../config/settings.ts";
import { createMetrics, type Metrics } from "../http/metrics.ts";
import { type HttpServer, httpSecurityOf, startHttpServer } from "../http/server.ts";
import { isBucketAddress } from "../inbox/bucket/bucket-address.ts";
import { deleteMatching } from "../lib/delete-keys.ts";
import type { ListenAddress } from "../lib/listen-address.ts";
import { duplicateClient } from "../lib/redis.ts";
import { withTimeout } from "../lib/with-timeout.ts";
import { sharedCampaignListing } from "../pipeline/campaign/campaign-listing.ts";
import { cappedExponential } from "../queue/backoff.ts";
import { createCampaignProcessor } from "../queue/campaign-processor.ts";
import { createDeliveryProcessor } from "../queue/delivery-processor.ts";
import { createFollowUpProcessor } from "../queue/follow-up-processor.ts";
import { createImportProcessor } from "../queue/import-processor.ts";
import { createPollProcessor, POLL_CONCURRENCY } from "../queue/poll-processor.ts";
import { closeQueues, createQueues, type Queues } from "../queue/queues.ts";
import { startReportScheduler } from "../queue/report-scheduler.ts";
import { startScheduler } from "../queue/scheduler.ts";
import { startWorker } from "../queue/start-worker.ts";
import { bindUseCases } from "../queue/use-cases.ts";
import type { WorkDeps } from "../queue/work-deps.ts";
import { ensureAddressFree } from "./http-address.ts";
import { claimInbox } from "./inbox-claim.ts";
import { type InboxRole, startInboxRole } from "./inbox-role.ts";
import { announce } from "./presence.ts";
import { watchEpoch } from "./redis-health.ts";
import { openServices, type Services } from "./services.ts";

export interface DaemonOptions {
  settings: Settings;
  logger: Logger;
  /** Watch the inboxes, run the cron scheduler and the embedded defaults (`vcw start`). */
  watch: boolean;
  /** Run the workers (imports, campaigns, polls, follow-ups, deliveries). */
  work: boolean;
  /** A run that ends by itself (`vcw demo`): Redis' risks are noted, not warned about. */
  oneOff?: boolean;
  /** Delete every key of the prefix once stopped (`vcw demo`: it leaves nothing in the Redis it used). */
  forgetOnClose?: boolean;
  /** The daemon's clock (its workers' and the sign-in throttle's); tests move one by hand. Default: Date.now. */
  now?: () => number;
}

export interface Daemon extends Omit<Services, "onClose"> {
  queues: Queues;
  /** Resolves when every inbox has been scanned once. */
  ready: Promise<void>;
  /** The inboxes watched (`vcw start`). */
  roles: InboxRole[];
  workers: Worker[];
  /** The operator's surface (health, metrics, dashboard), unless VCW_HTTP_ADDR=off. */
  http: HttpServer | undefined;
  metrics: Metrics | undefined;
}

/** Wires the daemon's roles: embedded defaults, inbox watchers, scheduler, workers. */
export async function startDaemon(o: DaemonOptions): Promise<Daemon> {
  const { settings: s, logger } = o;
  const now = o.now ?? Date.now;
  for (const line of describeSettings(s)) logger.info(line);
  // One-off runs (`vcw demo`) have no HTTP surface: nothing watches them.
  const httpAddr = o.oneOff ? undefined : s.httpAddr.value;
  // A taken address is refused before the embedded simulator or anything else starts.
  if (httpAddr) await ensureAddressFree(httpAddr);
  const metrics = httpAddr ? createMetrics() : undefined;
  const services = await openServices(s, logger, {
    embeddedSimulator: o.watch,
    daemon: o.oneOff !== true,
    ...(metrics ? { requestObserver: metrics.observeRequest } : {}),
  });
  try {
    const { redis, jobs, keys } = services;
    // Registered first, so it runs last: after the workers, queues and scheduler have stopped writing.
    if (o.forgetOnClose) services.onClose(() => deleteMatching(redis, keys.everything));
    if (jobs.size === 0) logger.warn(`no valid job definition in ${s.jobsDir.value}: nothing to import`);
    const bucketJobs = [...jobs.values()].filter((def) => isBucketAddress(def.inbox));
    if (o.watch) await claimInboxes(services, logger, jobs.values());
    else if (o.work) await claimInboxes(services, logger, bucketJobs);
    // The queues on a connection of their own: BullMQ defines its sixty scripts on the one it is given,
    // and ioredis copies every script defined on a client into each MULTI the stores make on it.
    const queueConnection = duplicateClient(redis);
    services.onClose(() => queueConnection.quit());
    const queues = createQueues({
      connection: queueConnection,
      keys,
      importAttempts: s.importAttempts.value,
      importBackoffMs: s.importBackoffMs.value,
      deliveryAttempts: s.deliveryAttempts.value,
      deliveryBackoffMs: s.deliveryBackoffMs.value,
      retentionMs: retentionMsOf(s),
    });
    services.onClose(() => closeQueues(queues));

    const workers: Worker[] = [];
    const watched = new Set<string>();
    let stopping = false;
    // Before the workers, so it closes after them: /readyz says "stopping" while they drain.
    const http =
      httpAddr && metrics
        ? await startOperatorSurface(services, queues, {
            address: httpAddr,
            settings: s,
            logger,
            now,
            metrics,
            seen: { workers: () => workers, stopping: () => stopping, watched: () => watched },
          })
        : undefined;
    if (o.work) {
      workers.push(...startWorkers(services, queues, s, logger, now));
    }
    metrics?.watchWorkers({
      imports: workers.find((w) => w.name === queues.imports.name),
      deliveries: workers.find((w) => w.name === queues.deliveries.name),
    });
    if (o.oneOff !== true) {
      // What it loads and ticks: readers tell a job nobody polls (queue/read-model/unpolled-jobs.ts).
      const presence = await announce(services.stores.presence, {
        role: o.watch ? "start" : "worker",
        http: http?.url ?? null,
        ticks: o.watch ? [...jobs.values()].filter((def) => def.campaign).map((def) => def.name) : [],
        loaded: [...jobs.keys()],
      });
      services.onClose(() => presence.stop());
      // Which jobs have campaigns, from every daemon at its start (readers find a job nobody polls by
      // it): the jobs loaded here, and once per deployment those from before the index.
      await services.stores.store.noteJobsWithCampaigns([...jobs.keys()]);
      await services.stores.store
        .backfillJobsWithCampaigns()
        .catch((error: unknown) =>
          logger.warn({ err: String(error) }, "jobs with campaigns: backfill failed"),
        );
    }

    const roles = o.watch
      ? await startWatching(services, queues, s, logger, watched)
      : o.work
        ? await startInboxRoles(services, queues, s, logger, watched, {
            defs: bucketJobs,
            // No epoch watch here: what a lost Redis left in processing/ waits a lease, as at a fresh start.
            firstRescanAfterMs: services.leaseMs,
          })
        : [];

    services.onClose(async () => {
      stopping = true; // registered last, so it runs first
    });
    const { onClose: _, ...rest } = services;
    return {
      ...rest,
      queues,
      ready: Promise.all(roles.map((r) => r.watcher.ready)).then(() => undefined),
      roles,
      workers,
      http,
      metrics,
    };
  } catch (error) {
    await services.close();
    throw error;
  }
}

/** The operator's surface (health, metrics, dashboard, actions) over this daemon's stores and queues. */
async function startOperatorSurface(
  services: Services,
  queues: Queues,
  o: {
    address: ListenAddress;
    settings: Settings;
    logger: Logger;
    now: () => number;
    metrics: Metrics;
    /** What the daemon learns after the surface starts: its workers, whether it stops, the inboxes watched. */
    seen: { workers: () => Worker[]; stopping: () => boolean; watched: () => ReadonlySet<string> };
  },
): Promise<HttpServer> {
  const { redis, jobs, keys, stores } = services;
  const http = await startHttpServer({
    address: o.address,
    token: o.settings.httpToken.value,
    health: { redis, workers: o.seen.workers, stopping: o.seen.stopping },
    overview: {
      redis,
      keys,
      queues,
      store: stores.store,
      experiments: stores.experiments,
      controls: stores.controls,
      resources: stores.resources,
      inboxes: stores.inboxes,
      jobs: () => jobs,
      watched: o.seen.watched,
      presence: stores.presence,
      numbers: { resources: stores.resources, budgets: stores.budgets, rests: stores.rests },
    },
    queues,
    stores,
    jobs: () => jobs,
    metrics: o.metrics,
    security: httpSecurityOf(o.settings),
    logger: o.logger,
    now: o.now,
  });
  services.onClose(() => http.close());
  o.logger.info({ url: http.url }, `dashboard ${http.url}/, metrics ${http.url}/metrics`);
  return http;
}

/** The watch role: the scheduler of polls and reports, the Redis epoch watch, an inbox role per job. */
async function startWatching(
  services: Services,
  queues: Queues,
  s: Settings,
  logger: Logger,
  watched: Set<string>,
): Promise<InboxRole[]> {
  const { redis, jobs, keys } = services;
  const roles: InboxRole[] = [];
  const scheduler = startScheduler({
    jobs,
    queues,
    store: services.stores.store,
    controls: services.stores.controls,
    presence: services.stores.presence,
    logger,
  });
  services.onClose(() => scheduler.stop());
  const reports = startReportScheduler({
    jobs,
    queues,
    store: services.stores.store,
    experiments: services.stores.experiments,
    inboxes: services.stores.inboxes,
    runs: services.stores.reportRuns,
    logger,
    publicUrl: s.publicUrl.value,
  });
  services.onClose(() => reports.stop());
  // Redis that has no record of this deployment (first start, or it lost its data): files left in
  // processing/ are taken up after a lease, once any request still in flight has landed.
  const epoch = await watchEpoch(redis, keys, {
    everyMs: 5_000,
    logger,
    onLoss: () => setTimeout(() => void Promise.all(roles.map((r) => r.rescan())), services.leaseMs).unref(),
  });
  services.onClose(async () => epoch.stop());
  roles.push(
    ...(await startInboxRoles(services, queues, s, logger, watched, {
      defs: [...jobs.values()],
      firstRescanAfterMs: epoch.fresh ? services.leaseMs : 0,
    })),
  );
  return roles;
}

/**
 * An inbox role per job of `defs`, watched from this process. A `vcw worker` watches the bucket
 * inboxes (every worker of a fleet shares them), never a folder (local to its `vcw start`).
 */
async function startInboxRoles(
  services: Services,
  queues: Queues,
  s: Settings,
  logger: Logger,
  watched: Set<string>,
  o: { defs: JobDefinition[]; firstRescanAfterMs: number },
): Promise<InboxRole[]> {
  const roles: InboxRole[] = [];
  services.onClose(() => Promise.all(roles.map((r) => r.close())));
  for (const def of o.defs) {
    const role = await startInboxRole({
      firstRescanAfterMs: o.firstRescanAfterMs,
      def,
      inbox: services.stores.inboxes(def.inbox),
      registry: services.stores.registry,
      queues,
      logger,
      stableMs: s.stableMs.value,
      scanMs: s.bucket.value.scanMs,
      rescanMs: s.rescanMs.value,
      retentionMs: retentionMsOf(s),
    });
    roles.push(role);
    watched.add(def.name);
  }
  return roles;
}

/**
 * Every inbox claimed before anything runs: a folder another daemon watches for another job refuses
 * the start (StartupError). Claims are given up when the daemon stops.
 */
async function claimInboxes(
  services: Services,
  logger: Logger,
  defs: Iterable<JobDefinition>,
): Promise<void> {
  for (const def of defs) {
    const claim = await claimInbox(services.redis, services.keys, {
      inbox: def.inbox,
      job: def.name,
      logger,
    });
    services.onClose(() => claim.stop());
  }
}

/** The five workers, on a connection of their own (BullMQ blocks on it). */
function startWorkers(
  services: Services,
  queues: Queues,
  s: Settings,
  logger: Logger,
  now: () => number,
): Worker[] {
  const stopping = new AbortController();
  // Every request waiting for the shared limit listens to it.
  setMaxListeners(0, stopping.signal);
  const deps: WorkDeps = {
    ...services.stores,
    client: services.client,
    imports: services.imports,
    listCampaigns: sharedCampaignListing(services.client, { now }),
    requestRate: async () => (await services.limiter.state()).rate,
    jobs: () => services.jobs,
    sinks: () => services.sinks,
    queues,
    logger,
    now,
    stopping: stopping.signal,
    leaseMs: services.leaseMs,
    // The ledger's: 0 with idempotency keys (a late copy can't be made, nothing to wait for).
    settleMs: services.stores.ledger.settleMs,
    startLeadMs: s.startLeadMs.value,
    stableMs: s.stableMs.value,
    retentionMs: retentionMsOf(s),
  };
  const connection = duplicateClient(services.redis);
  services.onClose(() => connection.quit());
  const common = {
    connection,
    keys: services.keys,
    lockDurationMs: s.lockMs.value,
    stalledIntervalMs: s.stalledIntervalMs.value,
    maxStalledCount: s.maxStalledCount.value,
    backoffStrategy: cappedExponential(s.deliveryBackoffMaxMs.value),
    logger,
  };
  const perSink = s.sinkConcurrency.value;
  // Each use case bound once: a processor is handed its one function and what it maps the outcome with.
  const u = bindUseCases(deps);
  const fate = { logger, pausedRetryMs: deps.pausedRetryMs };
  const workers = [
    startWorker("imports", createImportProcessor(u.importFile, fate), {
      ...common,
      concurrency: s.fileConcurrency.value,
    }),
    startWorker("campaigns", createCampaignProcessor(u.createCampaign, fate), { ...common, concurrency: 2 }),
    startWorker("polls", createPollProcessor(u.pollAndFollow, deps.traces), {
      ...common,
      concurrency: POLL_CONCURRENCY,
    }),
    startWorker("followUps", createFollowUpProcessor(u.followUps, logger), { ...common, concurrency: 1 }),
    // Each sink has its own slots, and the worker enough for all of them: a slow sink holds only its own.
    startWorker("deliveries", createDeliveryProcessor(u.sinkFor, { perSink }), {
      ...common,
      concurrency: perSink * Math.max(2, Object.keys(services.sinks).length),
    }),
  ] as Worker[];
  for (const w of workers) {
    w.on("error", (error) => logger.error({ queue: w.name, err: error.message }, "worker error"));
    w.on("failed", (job, error) => {
      if (job && w.name !== queues.imports.name)
        logger.warn(
          { queue: w.name, jobId: job.id, attempt: job.attemptsMade, err: error.message },
          "job failed",
        );
    });
  }
  services.onClose(async () => {
    // Running imports save their checkpoint and go back to the queue; none is lost. Polls and
    // requests are aborted. Whatever still runs after the grace period is left to BullMQ's stalled
    // check (another worker takes it up): a stop never hangs.
    stopping.abort();
    const closed = await withTimeout(
      Promise.all(workers.map((w) => w.close())).then(() => true),
      s.shutdownGraceMs.value,
      false,
    );
    if (!closed) {
      logger.warn(
        { graceMs: s.shutdownGraceMs.value },
        "jobs still running after the grace period: stopping anyway",
      );
      await withTimeout(Promise.all(workers.map((w) => w.close(true))), 1_000, undefined);
    }
  });
  return workers;
}
