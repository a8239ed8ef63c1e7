import { setMaxListeners } from "node:events";
import { readdir } from "node:fs/promises";
import type { Queue } from "bullmq";
import { Redis } from "ioredis";
import type { Logger } from "pino";
import { dropFolder, isCandidate } from "../pipeline/drop-folder.ts";
import { createFileRegistry } from "../pipeline/file-registry.ts";
import { admitFile, recoverFile } from "../queue/admit-file.ts";
import { createImportProcessor } from "../queue/import-processor.ts";
import { createImportQueue, type ImportJobData } from "../queue/import-queue.ts";
import { startImportWorker } from "../queue/import-worker.ts";
import { type InboxWatcher, watchInbox } from "./inbox-watcher.ts";
import { leaseMsOf, openServices, type Services } from "./services.ts";
import { describeSettings, type Settings } from "./settings.ts";

export interface DaemonOptions {
  settings: Settings;
  logger: Logger;
  /** Watch the inboxes and run the embedded defaults (`vcw start`); a bare worker doesn't. */
  watch: boolean;
  /** Run import workers. */
  work: boolean;
}

export interface Daemon extends Omit<Services, "onClose"> {
  queue: Queue<ImportJobData>;
  /** Resolves when every inbox has been scanned once. */
  ready: Promise<void>;
}

/** Wires the daemon's roles: embedded defaults, inbox watchers, import workers. */
export async function startDaemon(o: DaemonOptions): Promise<Daemon> {
  const { settings: s, logger } = o;
  for (const line of describeSettings(s)) logger.info(line);
  const services = await openServices(s, logger, { embeddedSimulator: o.watch });
  try {
    const { redis, jobs } = services;
    if (jobs.size === 0) logger.warn(`no valid job definition in ${s.jobsDir.value}: nothing to import`);
    const prefix = s.prefix.value;
    const bullPrefix = `${prefix}:bull`;
    const queue = createImportQueue({
      connection: redis,
      prefix: bullPrefix,
      attempts: s.importAttempts.value,
      backoffMs: s.importBackoffMs.value,
    });
    services.onClose(() => queue.close());
    const registry = createFileRegistry(redis, prefix);

    if (o.work) {
      const stopping = new AbortController();
      // Every request waiting for the shared limit listens to it.
      setMaxListeners(0, stopping.signal);
      const processor = createImportProcessor({
        jobs: () => jobs,
        client: services.client,
        redis,
        registry,
        prefix,
        leaseMs: leaseMsOf(s),
        logger,
        stopping: stopping.signal,
      });
      const workerRedis = new Redis(services.redisUrl, { maxRetriesPerRequest: null });
      services.onClose(() => workerRedis.quit());
      const worker = startImportWorker({
        connection: workerRedis,
        prefix: bullPrefix,
        processor,
        concurrency: s.fileConcurrency.value,
        lockDurationMs: s.lockMs.value,
        stalledIntervalMs: s.stalledIntervalMs.value,
        maxStalledCount: s.maxStalledCount.value,
      });
      worker.on("error", (error) => logger.error({ err: error.message }, "import worker error"));
      services.onClose(async () => {
        // Running imports save their checkpoint and go back to the queue; none is lost.
        stopping.abort();
        await worker.close();
      });
    }

    const watchers: InboxWatcher[] = [];
    if (o.watch) {
      for (const def of jobs.values()) {
        const deps = { job: def.name, folder: dropFolder(def.inbox), registry, queue };
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
    return { ...rest, queue, ready: Promise.all(watchers.map((w) => w.ready)).then(() => undefined) };
  } catch (error) {
    await services.close();
    throw error;
  }
}
