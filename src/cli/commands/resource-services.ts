import { resolveSettings } from "../../config/settings.ts";
import { type CallingService, callingService } from "../../daemon/calling-service.ts";
import { createLogger } from "../../daemon/logger.ts";
import { openServices, type Services } from "../../daemon/services.ts";

/** The resource files' folder: --dir, else VCW_RESOURCES_DIR, else ./resources. */
export const resourcesDir = (dir: string | undefined) => dir ?? process.env.VCW_RESOURCES_DIR ?? "resources";

/** Redis, the client and the jobs, as `vcw import` opens them: the embedded simulator unless VCS_BASE_URL is set. */
export async function withServices<T>(run: (s: Services) => Promise<T>): Promise<T> {
  const logger = createLogger({ level: process.env.LOG_LEVEL ?? "warn" });
  const services = await openServices(resolveSettings(), logger, { embeddedSimulator: true, daemon: false });
  try {
    return await run(services);
  } finally {
    await services.close();
  }
}

/**
 * The calling service alone, as every command finds it (daemon/calling-service.ts): VCS_BASE_URL,
 * else the home's embedded simulator, joined when one runs, else started for this command.
 */
export async function withCallingService<T>(run: (s: CallingService) => Promise<T>): Promise<T> {
  const logger = createLogger({ level: process.env.LOG_LEVEL ?? "warn" });
  const service = await callingService(resolveSettings(), logger, "join-or-start");
  try {
    return await run(service);
  } finally {
    await service.close();
  }
}
