import { logLevelOf } from "../../config/log-level.ts";
import { resolveSettings } from "../../config/settings.ts";
import { createLogger } from "../../daemon/logger.ts";
import { openServices, type Services } from "../../daemon/services.ts";

/** Redis, the client and the jobs, as `vcw import` opens them: the embedded simulator unless VCS_BASE_URL is set. */
export async function withServices<T>(run: (s: Services) => Promise<T>): Promise<T> {
  const logger = createLogger({ level: logLevelOf(process.env, "warn") });
  const services = await openServices(resolveSettings(), logger, { embeddedSimulator: true, daemon: false });
  try {
    return await run(services);
  } finally {
    await services.close();
  }
}
