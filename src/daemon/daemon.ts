import { setMaxListeners } from "node:events";
import { readdir } from "node:fs/promises";
import type { Worker } from "bullmq";
import type { Logger } from "pino";
import { describeSettings, type Settings } from "../config/settings.ts";
import { type AdmitResult, type AdmittedFile, admitFile, recoverFile } from "../inbox/admit-file.ts";
import { dropFolder, isCandidate } from "../inbox/drop-folder.ts";
import { type InboxWatcher, watchInbox } from "../inbox/watcher.ts";
import { createCampaignProcessor } from "../queue/campaign-processor.ts";
import { createDeliveryProcessor } from "../queue/delivery-processor.ts";
import { enqueueImport } from "../queue/enqueue-import.ts";
import { createFollowUpProcessor } from "../queue/follow-up-processor.ts";
import { createImportProcessor } from "../queue/import-processor.ts";
import { createPollProcessor } from "../queue/poll-processor.ts";
import { closeQueues, createQueues, type Queues } from "../queue/queues.ts";
import { startScheduler } from "../queue/scheduler.ts";
import { startWorker } from "../queue/start-worker.ts";
import type { WorkDeps } from "../queue/work-deps.ts";
import { openServices, type Services } from "./services.ts";

export interface DaemonOptions {
  settings: Settings;
  logger: Logger;
  /** Watch the inboxes, run the cron scheduler and the embedded defaults (`vcw start`). */
  watch: boolean;
  /** Run the workers (imports, campaigns, polls, follow-ups, deliveries). */
  work: boolean;
}

export interface Daemon extends Omit<Services, "onClose"> {
  queues: Queues;
  /** Resolves when every inbox has been scanned once. */
  ready: Promise<void>;
}

/** Wires the daemon's roles: embedded defaults, inbox watchers, scheduler, workers. */
export async function startDaemon(o: DaemonOptions): Promise<Daemon> {
  const { settings: s, logger } = o;
  for (const line of describeSettings(s)) logger.info(line);
  const services = await openServices(s, logger, { embeddedSimulator: o.watch });
  try {
    const { redis, jobs, keys } = services;
    if (jobs.size === 0) logger.warn(`no valid job definition in ${s.jobsDir.value}: nothing to import`);
    const queues = createQueues({
      connection: redis,
      keys,
      importAttempts: s.importAttempts.value,
      importBackoffMs: s.importBackoffMs.value,
      deliveryAttempts: s.deliveryAttempts.value,
      deliveryBackoffMs: s.deliveryBackoffMs.value,
    });
    services.onClose(() => closeQueues(queues));

    if (o.work) startWorkers(services, queues, s, logger);

    const watchers: InboxWatcher[] = [];
    if (o.watch) {
      const scheduler = startScheduler({ jobs, queues, store: services.store, logger });
      services.onClose(() => scheduler.stop());
      for (const def of jobs.values()) {
        const deps = {
          job: def.name,
          folder: dropFolder(def.inbox),
          registry: services.registry,
          enqueue: (file: AdmittedFile, gen: number) => enqueueImport(queues, file, gen),
        };
        const log = logger.child({ job: def.name });
        // One file at a time per job: admissions of one folder never race each other.
        let chain = Promise.resolve();
        const leftAlone = new Set<string>();
        const admit = (what: string, step: () => Promise<AdmitResult>) => {
          chain = chain.then(step).then(
            (result) => {
              if (result.kind !== "ignored") return log.info({ file: what, result }, "file admitted");
              // Said once per file: a foreign file stays in the inbox for good.
              if (result.reason.startsWith("not a contact file") && !leftAlone.has(what)) {
                leftAlone.add(what);
                log.warn({ file: what }, result.reason);
              }
            },
            (error: unknown) => log.error({ file: what, err: String(error) }, "file could not be admitted"),
          );
        };
        const pending = await readdir(deps.folder.processing).catch(() => [] as string[]);
        for (const name of pending.filter(isCandidate)) admit(name, () => recoverFile(name, deps));
        const watcher = await watchInbox(def.inbox, (path) => admit(path, () => admitFile(path, deps)), {
          stableMs: s.stableMs.value,
        });
        watchers.push(watcher);
        log.info({ inbox: def.inbox, segment: def.segment }, "watching");
      }
      services.onClose(() => Promise.all(watchers.map((w) => w.close())));
    }

    const { onClose: _, ...rest } = services;
    return { ...rest, queues, ready: Promise.all(watchers.map((w) => w.ready)).then(() => undefined) };
  } catch (error) {
    await services.close();
    throw error;
  }
}

/** The five workers, on a connection of their own (BullMQ blocks on it). */
function startWorkers(services: Services, queues: Queues, s: Settings, logger: Logger): void {
  const stopping = new AbortController();
  // Every request waiting for the shared limit listens to it.
  setMaxListeners(0, stopping.signal);
  const deps: WorkDeps = {
    jobs: () => services.jobs,
    sinks: () => services.sinks,
    client: services.client,
    redis: services.redis,
    keys: services.keys,
    queues,
    store: services.store,
    suppression: services.suppression,
    registry: services.registry,
    imports: services.imports,
    leaseMs: services.leaseMs,
    logger,
    now: Date.now,
    stopping: stopping.signal,
  };
  const connection = services.redis.duplicate();
  services.onClose(() => connection.quit());
  const common = {
    connection,
    keys: services.keys,
    lockDurationMs: s.lockMs.value,
    stalledIntervalMs: s.stalledIntervalMs.value,
    maxStalledCount: s.maxStalledCount.value,
  };
  const workers = [
    startWorker("imports", createImportProcessor(deps), { ...common, concurrency: s.fileConcurrency.value }),
    startWorker("campaigns", createCampaignProcessor(deps), { ...common, concurrency: 2 }),
    startWorker("polls", createPollProcessor(deps), { ...common, concurrency: 4 }),
    startWorker("followUps", createFollowUpProcessor(deps), { ...common, concurrency: 1 }),
    startWorker("deliveries", createDeliveryProcessor(deps), { ...common, concurrency: 4 }),
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
    // Running imports save their checkpoint and go back to the queue; none is lost.
    stopping.abort();
    await Promise.all(workers.map((w) => w.close()));
  });
}
