import { setMaxListeners } from "node:events";
import { readdir } from "node:fs/promises";
import type { Worker } from "bullmq";
import { Redis } from "ioredis";
import type { Logger } from "pino";
import type { SinkDefinition } from "../config/sink-definition.ts";
import { createCampaignStore } from "../pipeline/campaign-store.ts";
import { dropFolder, isCandidate } from "../pipeline/drop-folder.ts";
import { createFileRegistry } from "../pipeline/file-registry.ts";
import { createSuppressionList } from "../pipeline/suppression.ts";
import { admitFile, recoverFile } from "../queue/admit-file.ts";
import { createCampaignProcessor } from "../queue/campaign-processor.ts";
import { createDeliveryProcessor } from "../queue/delivery-processor.ts";
import { createFollowUpProcessor } from "../queue/follow-up-processor.ts";
import { createImportProcessor } from "../queue/import-processor.ts";
import { IMPORT_QUEUE } from "../queue/import-queue.ts";
import { createPollProcessor } from "../queue/poll-processor.ts";
import {
  CAMPAIGN_QUEUE,
  closeQueues,
  createQueues,
  DELIVERY_QUEUE,
  FOLLOW_UP_QUEUE,
  POLL_QUEUE,
  type Queues,
} from "../queue/queues.ts";
import { startScheduler } from "../queue/scheduler.ts";
import { startWorker } from "../queue/start-worker.ts";
import type { WorkDeps } from "../queue/work-deps.ts";
import { type InboxWatcher, watchInbox } from "./inbox-watcher.ts";
import { leaseMsOf, openServices, type Services } from "./services.ts";
import { describeSettings, type Settings } from "./settings.ts";

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
    const { redis, jobs } = services;
    if (jobs.size === 0) logger.warn(`no valid job definition in ${s.jobsDir.value}: nothing to import`);
    const prefix = s.prefix.value;
    const bullPrefix = `${prefix}:bull`;
    const queues = createQueues({
      connection: redis,
      prefix: bullPrefix,
      importAttempts: s.importAttempts.value,
      importBackoffMs: s.importBackoffMs.value,
      deliveryAttempts: s.deliveryAttempts.value,
      deliveryBackoffMs: s.deliveryBackoffMs.value,
    });
    services.onClose(() => closeQueues(queues));
    const registry = createFileRegistry(redis, prefix);
    const store = createCampaignStore(redis, prefix);
    const suppression = createSuppressionList(redis, prefix);
    const sinks: Record<string, SinkDefinition> = services.sinks;

    if (o.work) {
      const stopping = new AbortController();
      // Every request waiting for the shared limit listens to it.
      setMaxListeners(0, stopping.signal);
      const deps: WorkDeps = {
        jobs: () => jobs,
        sinks: () => sinks,
        client: services.client,
        redis,
        queues,
        store,
        suppression,
        prefix,
        leaseMs: leaseMsOf(s),
        logger,
        now: Date.now,
      };
      const importProcessor = createImportProcessor({
        jobs: () => jobs,
        client: services.client,
        redis,
        registry,
        prefix,
        leaseMs: leaseMsOf(s),
        logger,
        stopping: stopping.signal,
        suppressed: (phones) => suppression.which(phones),
        // The campaign is asked for before the file is settled: a crash in between asks again (same job id).
        onImported: async (data, summary) => {
          const def = jobs.get(data.job);
          const contacts = (summary.created ?? 0) + (summary.known ?? 0) + (summary.elsewhere ?? 0);
          if (!def?.campaign || !summary.segment || contacts === 0) return;
          const gen = data.gen ?? 1;
          await queues.campaigns.add(
            `${data.job}/${data.original}`,
            {
              job: data.job,
              sha256: data.sha256,
              gen,
              original: data.original,
              segmentId: summary.segment.id,
              attempt: 0,
            },
            { jobId: `campaign-${data.job}-${data.sha256.slice(0, 16)}-${gen}-0` },
          );
        },
      });
      const workerRedis = new Redis(services.redisUrl, { maxRetriesPerRequest: null });
      services.onClose(() => workerRedis.quit());
      const common = {
        connection: workerRedis,
        prefix: bullPrefix,
        lockDurationMs: s.lockMs.value,
        stalledIntervalMs: s.stalledIntervalMs.value,
        maxStalledCount: s.maxStalledCount.value,
      };
      const workers: Worker[] = [
        startWorker(IMPORT_QUEUE, importProcessor, { ...common, concurrency: s.fileConcurrency.value }),
        startWorker(CAMPAIGN_QUEUE, createCampaignProcessor(deps), { ...common, concurrency: 2 }),
        startWorker(POLL_QUEUE, createPollProcessor(deps), { ...common, concurrency: 4 }),
        startWorker(FOLLOW_UP_QUEUE, createFollowUpProcessor(deps), { ...common, concurrency: 1 }),
        startWorker(DELIVERY_QUEUE, createDeliveryProcessor(deps), { ...common, concurrency: 4 }),
      ] as Worker[];
      for (const w of workers)
        w.on("error", (error) => logger.error({ queue: w.name, err: error.message }, "worker error"));
      for (const w of workers) {
        w.on("failed", (job, error) => {
          if (job && w.name !== IMPORT_QUEUE)
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

    const watchers: InboxWatcher[] = [];
    if (o.watch) {
      const scheduler = startScheduler({ jobs, queues, store, logger });
      services.onClose(() => scheduler.stop());
      for (const def of jobs.values()) {
        const deps = { job: def.name, folder: dropFolder(def.inbox), registry, queue: queues.imports };
        const log = logger.child({ job: def.name });
        // One file at a time per job: admissions of one folder never race each other.
        let chain = Promise.resolve();
        const admit = (what: string, step: () => Promise<unknown>) => {
          chain = chain.then(step).then(
            (result) => log.info({ file: what, result }, "file admitted"),
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
