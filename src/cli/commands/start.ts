import { Command } from "commander";
import { resolveSettings } from "../../config/settings.ts";
import { startDaemon } from "../../daemon/daemon.ts";
import { createLogger } from "../../daemon/logger.ts";

/** Runs until SIGINT/SIGTERM, then stops gracefully: running imports checkpoint and go back to the queue. */
async function runDaemon(watch: boolean): Promise<void> {
  const settings = resolveSettings();
  const logger = createLogger({ level: settings.logLevel.value });
  const daemon = await startDaemon({ settings, logger, watch, work: true });
  await daemon.ready;
  if (watch) {
    for (const def of daemon.jobs.values()) logger.info(`drop CSV files into ${def.inbox} (job ${def.name})`);
  }
  logger.info(watch ? "vcw daemon running; Ctrl-C stops it" : "vcw worker running");
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      logger.info({ signal }, "stopping: imports in progress are checkpointed and requeued");
      resolve();
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  // Whatever still holds the process after the grace period (a socket that never closes) doesn't keep it.
  setTimeout(() => process.exit(0), settings.shutdownGraceMs.value + 5_000).unref();
  await daemon.close();
  logger.info("stopped");
  logger.flush();
}

export function startCommand(): Command {
  return new Command("start")
    .description(
      "Run the daemon: watch each job's inbox, import dropped files; embedded simulator unless VCS_BASE_URL is set",
    )
    .action(() => runDaemon(true));
}

export function workerCommand(): Command {
  return new Command("worker")
    .description(
      "Run import workers only (scale out: run more of them): REDIS_URL and VCS_BASE_URL, or the embedded simulator a `vcw start` runs under this home",
    )
    .action(() => runDaemon(false));
}
